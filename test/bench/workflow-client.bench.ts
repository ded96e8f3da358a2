import { performance } from 'node:perf_hooks'
import { Agent, request } from 'undici'
import { createConnection } from '../../main/services/connection/connection'
import { createHttpClient } from '../../main/services/http/client'
import { spawnSandbox } from '../integration/clients/support/child-sandbox'
import { createTargets, ensure } from './targets'

/**
 * Listing every publisher of the large sandbox through the workflow client, against a bare
 * undici loop over the same pages: the baseline, measured in the same run, alternating with
 * the client. Every run must list every publisher the platform counts. The sandbox runs in its
 * own process so it does not share this event loop. Target: client / bare ≤ 1.2; fails if missed.
 */

const PAGE_SIZE = '1000'
const ROUNDS = 7
const TARGET_RATIO = 1.2

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

export default async function bench(): Promise<void> {
  const targets = createTargets()
  const sandbox = await spawnSandbox(['--scale', 'large'], { from: 'sources' })
  const http = createHttpClient()
  const bareAgent = new Agent()
  try {
    const { info } = sandbox
    const connection = createConnection({
      settings: { baseUrl: info.base_url, authUrl: info.auth_url, reportUrl: info.report_url, serviceId: info.service_id, reportServiceId: null },
      credentials: async () => ({ method: 'password', username: info.username, password: info.password }),
      http,
    })
    // Both loops use the same token, signed in before any timing.
    const token = (await connection.tokens.workflow.get()).value

    async function throughClient(): Promise<number> {
      let count = 0
      for await (const page of connection.workflow.list('publishers', { query: { page_size: PAGE_SIZE } })) count += page.length
      return count
    }

    // The total the platform reports, read by the bare loop; every run must have listed this many.
    let platformCount = Number.NaN
    async function bare(): Promise<number> {
      let count = 0
      let url: string | null = `${info.base_url}/publishers/?page_size=${PAGE_SIZE}`
      while (url !== null) {
        const response = await request(url, { dispatcher: bareAgent, headers: { authorization: `Bearer ${token}`, accept: 'application/json' } })
        ensure(response.statusCode === 200, `the bare loop got HTTP ${response.statusCode} for ${url}`)
        const page = (await response.body.json()) as { count: number; next: string | null; results: unknown[] }
        platformCount = page.count
        count += page.results.length
        url = page.next
      }
      return count
    }

    async function timed(run: () => Promise<number>): Promise<{ ms: number; count: number }> {
      const started = performance.now()
      const count = await run()
      const ms = performance.now() - started
      ensure(count === platformCount, `${run === bare ? 'the bare loop' : 'the client'} listed ${count} publishers of ${platformCount}`)
      return { ms, count }
    }

    // Warm up both paths (JIT, connection pools, the sandbox's own caches) before measuring.
    await timed(bare)
    await timed(throughClient)

    const clientTimes: number[] = []
    const bareTimes: number[] = []
    let entities = 0
    for (let round = 0; round < ROUNDS; round += 1) {
      // Alternate the order so drift in the machine's load does not favour one side.
      const order = round % 2 === 0 ? [throughClient, bare] : [bare, throughClient]
      for (const run of order) {
        const { ms, count } = await timed(run)
        ;(run === bare ? bareTimes : clientTimes).push(ms)
        entities = count
      }
    }

    const clientMs = median(clientTimes)
    const bareMs = median(bareTimes)
    process.stdout.write(
      `publishers listed:  ${entities} in every run (${Math.ceil(entities / Number(PAGE_SIZE))} pages of ${PAGE_SIZE}), median of ${ROUNDS} rounds\n`,
    )
    process.stdout.write(`workflow client runs: ${clientTimes.map((ms) => ms.toFixed(0)).join(', ')} ms\n`)
    process.stdout.write(`bare undici runs:     ${bareTimes.map((ms) => ms.toFixed(0)).join(', ')} ms\n`)
    targets.note('workflow client (median)', clientMs, 'ms')
    targets.note('baseline: bare undici loop, same pages (median)', bareMs, 'ms')
    targets.check('ratio client / bare', clientMs / bareMs, '×', TARGET_RATIO, { atMost: true })
  } finally {
    await http.close()
    await bareAgent.close()
    await sandbox.stop()
  }
  targets.verdict()
}
