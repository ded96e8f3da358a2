import v8 from 'node:v8'
import vm from 'node:vm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createConnection, type Connection } from '../../../main/services/connection/connection'
import type { HttpClient } from '../../../main/services/http/client'
import type { Entity } from '../../../main/services/workflow/entities'
import { spawnSandbox } from './support/child-sandbox'
import { fastHttp } from './support/sandbox'

// A real garbage collection between samples, so the numbers are what is kept, not what is pending collection.
v8.setFlagsFromString('--expose-gc')
const collectGarbage = vm.runInNewContext('gc') as () => void

const MB = 1024 * 1024
/** What a streaming consumer may grow by while 100,000 publishers pass through (one page is ~0.1 MB). */
const BOUND = 8 * MB

let sandbox: Awaited<ReturnType<typeof spawnSandbox>>
let http: HttpClient
let connection: Connection

beforeAll(async () => {
  sandbox = await spawnSandbox(['--scale', 'large'])
  http = fastHttp()
  const { info } = sandbox
  connection = createConnection({
    settings: { baseUrl: info.base_url, authUrl: info.auth_url, reportUrl: info.report_url, serviceId: info.service_id, reportServiceId: null },
    credentials: async () => ({ method: 'password', username: info.username, password: info.password }),
    http,
  })
  await connection.tokens.workflow.get()
})
afterAll(async () => {
  await http.close()
  await sandbox.stop()
})

function heapUsed(): number {
  collectGarbage()
  return process.memoryUsage().heapUsed
}

/** Lists every publisher; `keep` decides what the consumer holds on to. Returns the count and the peak growth. */
async function listAll(keep: (page: Entity[]) => void): Promise<{ count: number; growth: number; pages: number }> {
  const baseline = heapUsed()
  let peak = 0
  let count = 0
  let pages = 0
  let reported = -1
  for await (const page of connection.workflow.list('publishers', { query: { page_size: '1000' }, onProgress: (progress) => (reported = progress.count) })) {
    count += page.length
    pages += 1
    keep(page)
    if (pages % 10 === 0) peak = Math.max(peak, heapUsed() - baseline)
  }
  peak = Math.max(peak, heapUsed() - baseline)
  expect(reported).toBe(count)
  return { count, growth: peak, pages }
}

describe('listing 100,000 publishers', () => {
  it('keeps memory bounded when the caller does not keep the pages', { timeout: 120_000 }, async () => {
    const streaming = await listAll(() => undefined)
    expect(streaming.count).toBeGreaterThanOrEqual(100_000)
    expect(streaming.pages).toBe(Math.ceil(streaming.count / 1000))
    expect(streaming.growth).toBeLessThan(BOUND)

    // The same listing with a consumer that keeps everything grows well past the bound:
    // proof the measurement would catch a client that buffered pages.
    const kept: Entity[][] = []
    const hoarding = await listAll((page) => kept.push(page))
    expect(hoarding.growth).toBeGreaterThan(BOUND)
    console.info(`heap growth: streaming ${(streaming.growth / MB).toFixed(1)} MB, keeping every page ${(hoarding.growth / MB).toFixed(1)} MB`)
  })
})
