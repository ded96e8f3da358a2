import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { createHash } from 'node:crypto'
import { createReadStream, promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import type { ExportOptions, ReportDefinition } from '@contract'
import type { SandboxInfo } from '../../main/sandbox/index'
import { createServices } from '../../main/services'
import { DisposableStore, toDisposable } from '../../main/services/lifecycle/disposables'
import { planExport } from '../../main/services/exports/export-plan'
import { createMemoryKeychain } from '../support/memory-keychain'
import { sampleDefinition } from '../support/channel-samples'
import { createTargets, ensure } from './targets'

/**
 * Exports end to end, a 1,000,000-row csv of eight numbers a row (page URLs over 400 days; the
 * file ends with the Others row), at least 100 MiB as the issue that set the targets measured it
 * (about 110 MB), against two servers:
 * - the large demo (a child process, so its memory and CPU are its own), which takes seconds to
 *   produce the file;
 * - a fast server (fast-export-server.ts, also a child, on 127.0.0.1 only): the demo's very
 *   answer, fetched once and kept in memory, sent at memory speed. The demo's pace hides a client
 *   that stops reading the network while it writes the disk; this one does not.
 * Against each, the file is fetched three ways, each checked to be the same bytes:
 * - `curl` with the same request body, then an fsync of its file: the baseline, what the
 *   network, the platform and a durable file cost (both others fsync before they rename);
 * - the app's export job, in this process as main runs it (services, queue, atomic save, row
 *   counting): at most 1.1× the baseline, and the process's RSS grows by at most 64 MB while it runs;
 * - the command line, `node build/cli.mjs report export` (what `npm run cli` runs), start
 *   included: at most 1.1× the baseline. Beside it, Node's own start with undici loaded (no target):
 *   what any Node program with this client pays before its first byte, so what the command line
 *   adds beyond the baseline and that start shows apart.
 * Each is run several times (3 on the demo, 5 on the fast server), interleaved, and its best time
 * kept, so a passing load spike on a shared machine does not decide; every round's figures are
 * printed too. Fails when any target is missed. BENCH_EXPORTS_FAST_ONLY=1 runs the fast server only;
 * BENCH_PROFILE_CLI=DIR keeps a CPU profile of each command-line run in DIR (node --cpu-prof).
 */

const TARGETS = { appVsBaseline: 1.1, rssGrowthMb: 64, cliVsBaseline: 1.1 }
const ROUNDS = 3
/** The fast server's rounds are short, and the more sensitive to a passing load spike: more of them. */
const FAST_ROUNDS = 5
const MIB = 1024 * 1024
const MIN_FILE_BYTES = 100 * MIB
const root = path.resolve(import.meta.dirname, '..', '..')

async function startLargeSandbox(): Promise<{ child: ChildProcess; info: SandboxInfo }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'main/sandbox/cli.ts', '--port', '0', '--scale', 'large'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const stdout = child.stdout
  if (!stdout) throw new Error('no stdout from the sandbox')
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: stdout }).once('line', resolve)
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${String(code)}`)))
  })
  return { child, info: JSON.parse(first) as SandboxInfo }
}

/** Flushes a file to the disk, as the app and the command line do before their rename; resolves with the seconds it took. */
async function fsyncFile(file: string): Promise<number> {
  const started = performance.now()
  const handle = await fs.open(file, 'r+')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
  return (performance.now() - started) / 1000
}

async function digest(file: string): Promise<{ sha: string; bytes: number }> {
  const hash = createHash('sha256')
  let bytes = 0
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk as Buffer)
    bytes += (chunk as Buffer).length
  }
  return { sha: hash.digest('hex'), bytes }
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ seconds: number; code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.once('error', reject)
    child.once('close', (code) => resolve({ seconds: (performance.now() - started) / 1000, code, stderr }))
  })
}

/** The fast server (fast-export-server.ts), once it holds the demo's file and listens. */
async function startFastServer(demoReportUrl: string, requestFile: string, token: string): Promise<{ child: ChildProcess; reportUrl: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/bench/fast-export-server.ts', demoReportUrl, requestFile, token], {
    cwd: root,
    // Its standard input is a pipe held by this process: the server exits when the bench does.
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  const stdout = child.stdout
  if (!stdout) throw new Error('no stdout from the fast server')
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: stdout }).once('line', resolve)
    child.once('exit', (code) => reject(new Error(`the fast server exited with ${String(code)}`)))
  })
  return { child, reportUrl: (JSON.parse(first) as { report_url: string }).report_url }
}

/** curl with the job's body (token included), then the fsync of its file. */
async function curlExport(out: string, reportUrl: string, curlBody: string): Promise<{ curl: number; fsync: number }> {
  const curl = await run('curl', [
    '-sS',
    '--fail',
    '-o',
    out,
    '-X',
    'POST',
    '-H',
    'content-type: application/json',
    '--data-binary',
    `@${curlBody}`,
    `${reportUrl}/API/v2/export`,
  ])
  ensure(curl.code === 0, `curl failed: ${curl.stderr}`)
  return { curl: curl.seconds, fsync: await fsyncFile(out) }
}

/** `node build/cli.mjs report export`, start included. */
async function cliExport(out: string, reportUrl: string, info: SandboxInfo, requestFile: string, work: string): Promise<number> {
  const cli = await run(
    process.execPath,
    [
      ...(process.env.BENCH_PROFILE_CLI ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_CLI}`] : []),
      'build/cli.mjs',
      'report',
      'export',
      '--request',
      requestFile,
      '--out',
      out,
      '--base-url',
      info.base_url,
      '--auth-url',
      info.auth_url,
      '--report-url',
      reportUrl,
      '--service-id',
      info.service_id,
    ],
    // The permanent token curl sends: the same credential, so neither pays a sign-in the other does not.
    { ...process.env, ADOPS_TOKEN: info.permanent_token, ADOPS_USER_DATA: path.join(work, 'cli-data'), ADOPS_KEYCHAIN_SERVICE: 'AdOps Desk exports bench' },
  )
  ensure(cli.code === 0, `the command line failed: ${cli.stderr}`)
  return cli.seconds
}

/** The three ways of fetching one export; each writes `out`. */
interface Ways {
  curl(out: string, reportUrl: string): Promise<{ curl: number; fsync: number }>
  app(out: string, profileId: string): Promise<{ seconds: number; rssGrowthMb: number }>
  cli(out: string, reportUrl: string): Promise<number>
}

interface Best {
  curl: number
  fsync: number
  baseline: number
  app: number
  cli: number
  rssGrowthMb: number
  sha: string
  bytes: number
  /** Each round's baseline / app / command line, to show the spread behind the best. */
  rounds: string[]
}

/**
 * The three ways against one server, interleaved, `rounds` times, each way's best kept; every
 * round checks that the three files are the same bytes.
 */
async function measure(server: { name: string; reportUrl: string; profileId: string; rounds: number; work: string }, ways: Ways): Promise<Best> {
  const best: Best = { curl: Infinity, fsync: Infinity, baseline: Infinity, app: Infinity, cli: Infinity, rssGrowthMb: 0, sha: '', bytes: 0, rounds: [] }
  for (let round = 0; round < server.rounds; round++) {
    const files: Record<string, { sha: string; bytes: number }> = {}
    const out = (way: string): string => path.join(server.work, `${server.name}-${way}-${round}.csv`)
    const curl = await ways.curl(out('curl'), server.reportUrl)
    files.curl = await digest(out('curl'))
    const app = await ways.app(out('app'), server.profileId)
    files.app = await digest(out('app'))
    const cli = await ways.cli(out('cli'), server.reportUrl)
    files.cli = await digest(out('cli'))
    await Promise.all(['curl', 'app', 'cli'].map((way) => fs.rm(out(way))))
    ensure(files.app.sha === files.curl.sha && files.cli.sha === files.curl.sha, `the three files differ (${server.name}): ${JSON.stringify(files)}`)
    const baseline = curl.curl + curl.fsync
    best.curl = Math.min(best.curl, curl.curl)
    best.fsync = Math.min(best.fsync, curl.fsync)
    best.baseline = Math.min(best.baseline, baseline)
    best.app = Math.min(best.app, app.seconds)
    best.cli = Math.min(best.cli, cli)
    best.rssGrowthMb = Math.max(best.rssGrowthMb, app.rssGrowthMb)
    best.sha = files.curl.sha
    best.bytes = files.curl.bytes
    best.rounds.push(`${baseline.toFixed(2)} / ${app.seconds.toFixed(2)} / ${cli.toFixed(2)} s`)
  }
  return best
}

export default async function bench(): Promise<void> {
  const targets = createTargets()
  const curlCheck = spawnSync('curl', ['--version'], { encoding: 'utf8' })
  ensure(curlCheck.status === 0, 'curl is not on this machine; the baseline cannot be measured')
  // The command line is built now if it is stale, so its timing is a start, not a build.
  ensure(spawnSync(process.execPath, ['build/cli.mjs', '--help'], { cwd: root, stdio: 'ignore' }).status === 0, 'the command line could not be built')

  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'adops-bench-exports-'))
  const { child, info } = await startLargeSandbox()
  const userDataDir = path.join(work, 'user-data')
  let target = ''
  const lifetime = new DisposableStore()
  const services = createServices(
    {
      userDataDir,
      keychainServiceName: 'AdOps Desk exports bench',
      environment: { version: 'bench', platform: process.platform },
      host: {
        openKeychain: async () => createMemoryKeychain(),
        dialogs: { chooseSavePath: async () => target, chooseOpenPaths: async () => [] },
      },
      startSandbox: () => Promise.reject(new Error('no demo in the bench')),
    },
    lifetime,
  )
  try {
    await services.start()
    const profile = await services.profiles.create({
      name: 'Large sandbox',
      baseUrl: info.base_url,
      authUrl: info.auth_url,
      reportUrl: info.report_url,
      serviceId: info.service_id,
      auth: { method: 'password', username: info.username, password: info.password },
    })
    const definition: ReportDefinition = {
      ...sampleDefinition,
      dates: { start: '-400d', end: 'yesterday' },
      timezone: { mode: 'report' },
      filters: [],
      filterLogic: '',
      metricConditions: [],
      metricConditionLogic: '',
      sort: [],
    }
    // Eight numbers a row make the 1,000,000 rows the platform caps a file at about 110 MB.
    const dataFields = ['impressions', 'revenue', 'requests', 'clicks', 'bids', 'wins', 'margin', 'ecpm']
    // The platform's column names, so the three files compare byte for byte (the screens' names
    // change the first line only: exports/header-line.ts).
    const options: ExportOptions = { format: 'csv', keys: ['page_url'], dataFields, apiColumnNames: true }
    // The exact body the job sends, so curl and the command line fetch the same file.
    const reportInfo = await services.reports.info(profile.id, 'demo', 'supply', { signal: new AbortController().signal })
    const { request } = planExport(definition, reportInfo, options, { now: () => new Date(), osOffsetMinutes: () => 0 })
    const requestFile = path.join(work, 'request.json')
    await fs.writeFile(requestFile, JSON.stringify(request))
    const curlBody = path.join(work, 'curl-body.json')
    await fs.writeFile(curlBody, JSON.stringify({ ...request, token: info.permanent_token }))

    const fast = await startFastServer(info.report_url, requestFile, info.permanent_token)
    lifetime.add(toDisposable(() => void fast.child.kill('SIGTERM')))
    const fastProfile = await services.profiles.create({
      name: 'Fast export server',
      baseUrl: info.base_url,
      authUrl: info.auth_url,
      reportUrl: fast.reportUrl,
      serviceId: info.service_id,
      auth: { method: 'password', username: info.username, password: info.password },
    })

    const ways: Ways = {
      curl: (out, reportUrl) => curlExport(out, reportUrl, curlBody),
      async app(out, profileId) {
        target = out
        const baseline = process.memoryUsage.rss()
        let peak = baseline
        const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20)
        const started = performance.now()
        const job = await services.exports.start(profileId, { kind: 'definition', definition }, options)
        ensure(job !== null, 'the export job did not start')
        const ended = await services.exports.whenEnded(job.jobId)
        const seconds = (performance.now() - started) / 1000
        clearInterval(sampler)
        peak = Math.max(peak, process.memoryUsage.rss())
        ensure(ended.state === 'done', `the export job ended ${ended.state}: ${ended.error ?? ''}`)
        ensure(
          ended.capped === true && ended.rows === 1_000_001,
          `the job's file is not 1,000,000 rows and Others (rows ${String(ended.rows)}, capped ${String(ended.capped)})`,
        )
        return { seconds, rssGrowthMb: (peak - baseline) / MIB }
      },
      cli: (out, reportUrl) => cliExport(out, reportUrl, info, requestFile, work),
    }
    // The command line's floor: its start alone (Node, the built modules, the contract), no request.
    const starts: number[] = []
    for (let round = 0; round < FAST_ROUNDS; round++) starts.push((await run(process.execPath, ['build/cli.mjs', '--help'])).seconds)
    const nodeStarts: number[] = []
    for (let round = 0; round < FAST_ROUNDS; round++) nodeStarts.push((await run(process.execPath, ['--input-type=module', '-e', "import 'undici'"])).seconds)
    const nodeStart = Math.min(...nodeStarts)
    const fastOnly = process.env.BENCH_EXPORTS_FAST_ONLY === '1'
    const demo = fastOnly ? null : await measure({ name: 'demo', reportUrl: info.report_url, profileId: profile.id, rounds: ROUNDS, work }, ways)
    const quick = await measure({ name: 'fast', reportUrl: fast.reportUrl, profileId: fastProfile.id, rounds: FAST_ROUNDS, work }, ways)
    ensure(demo === null || demo.sha === quick.sha, 'the fast server does not serve the bytes the demo does')

    ensure(quick.bytes >= MIN_FILE_BYTES, `the file is ${(quick.bytes / MIB).toFixed(1)} MiB, under the 100 MiB the targets are set for`)
    process.stdout.write(`file: ${(quick.bytes / MIB).toFixed(1)} MiB (${(quick.bytes / 1e6).toFixed(1)} MB), 1,000,000 rows + Others\n`)
    const cases = [
      ...(demo === null ? [] : [['demo backend', demo, ROUNDS] as const]),
      ['fast server (prepared bytes from memory)', quick, FAST_ROUNDS] as const,
    ]
    targets.note('command line start alone (--help), best', Math.min(...starts), 's')
    targets.note("Node's start with undici loaded, best", nodeStart, 's')
    for (const [label, best, rounds] of cases) {
      process.stdout.write(`\n${label}, best of ${rounds} each (every round: ${best.rounds.join('; ')})\n`)
      targets.note('curl', best.curl, 's')
      targets.note("fsync of curl's file", best.fsync, 's')
      targets.note('baseline: curl then fsync', best.baseline, 's')
      targets.note('app export job', best.app, 's')
      targets.note('command line (node build/cli.mjs), start included', best.cli, 's')
      targets.note("command line beyond the baseline and Node's start", best.cli - best.baseline - nodeStart, 's')
      targets.check('app export job / baseline', best.app / best.baseline, '×', TARGETS.appVsBaseline, { atMost: true })
      targets.check('main-process RSS growth during the job', best.rssGrowthMb, 'MB', TARGETS.rssGrowthMb, { atMost: true })
      targets.check('command line / baseline, start included', best.cli / best.baseline, '×', TARGETS.cliVsBaseline, { atMost: true })
    }
  } finally {
    await lifetime.dispose()
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    await exited
    await fs.rm(work, { recursive: true, force: true })
  }
  targets.verdict()
}
