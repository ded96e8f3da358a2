import { spawnSync } from 'node:child_process'
import diagnosticsChannel from 'node:diagnostics_channel'
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import type { IncomingMessage, Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Cadence, ReportDefinition } from '@contract'
import { startSandbox, type Sandbox } from '../../../main/sandbox'
import { dialogFolders } from '../../../main/services/files/folder-dialogs'
import { createNotices } from '../../../main/services/notices'
import { createPresetStore, presetsFolder } from '../../../main/services/presets/preset-store'
import { loadKeytar, type Keytar } from '../../../main/services/secrets/keychain'
import { LEDGER_MAX_BYTES } from '../../../main/services/schedules/ledger'
import { sampleDefinition } from '../../support/channel-samples'
import { freshBuild, spawnChild, type SpawnedChild } from '../../support/child-process'
import { recordServerRequests, type ServerRequests } from '../../support/server-requests'
import { saveDemoProfile, testServices } from '../cli/support'

/**
 * A schedule run by the built command line (out/cli/index.js, its own process, as the OS entry
 * starts it) while the machine fails for real: a file-size limit standing in for a full disk, a
 * lock folder that is a file, a read-only data folder, a process killed mid-export. The platform's
 * export calls are counted on the demo backend's side. The saved connection's password is in the
 * real OS keychain (the spawned process reads it there): run through test/with-keyring.sh, as npm test does.
 */
const KEYCHAIN_SERVICE = 'AdOps Desk schedule fault tests'
const EXPORT_PATH = '/export'

const weekly: ReportDefinition = {
  ...sampleDefinition,
  dates: { start: '-7d', end: 'yesterday' },
  timezone: { mode: 'fixed', offset: 0 },
  metrics: ['impressions'],
  granularity: 'granularity_day',
  breakdown: ['country'],
  lines: { mode: 'pick', values: ['DE', 'FR'], includeTotal: true },
  filters: [],
  filterLogic: '',
  metricConditions: [],
  sort: [],
  comparison: 'none',
}

let sandbox: Sandbox
let keytar: Keytar
let requests: ServerRequests
const folders: string[] = []
const children: SpawnedChild[] = []

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 })
  requests = recordServerRequests(sandbox.port)
  keytar = await loadKeytar()
  await keytar.findCredentials(KEYCHAIN_SERVICE).catch((error: unknown) => {
    throw new Error(`The OS keychain is not reachable (${String(error)}). Run the tests through test/with-keyring.sh.`)
  })
})
afterEach(async () => {
  sandbox.setFaults({ latency_ms: 0 })
  for (const child of children.splice(0)) await child.stop('SIGKILL')
})
afterAll(async () => {
  requests.stop()
  await sandbox.close()
  for (const { account } of await keytar.findCredentials(KEYCHAIN_SERVICE)) await keytar.deletePassword(KEYCHAIN_SERVICE, account)
  for (const folder of folders) {
    await chmod(folder, 0o755).catch(() => undefined)
    await rm(folder, { recursive: true, force: true })
  }
})

/** A data folder with the connection "Demo", the preset "Weekly EU" and the schedule "Nightly" exporting it as CSV, made as the app makes them. */
async function dataFolder(cadence: Cadence = { kind: 'daily', at: '00:00' }): Promise<string> {
  const userData = await mkdtemp(path.join(os.tmpdir(), 'adops-schedule-faults-'))
  folders.push(userData)
  const notices = createNotices()
  await saveDemoProfile({ info: sandbox.info, userData, keychain: keytar, keychainService: KEYCHAIN_SERVICE, notices })
  await createPresetStore({ folder: presetsFolder(userData), notices }).save({ name: 'Weekly EU', definition: weekly, description: '' }, false)
  const built = testServices(keytar)({ userDataDir: userData, keychainService: KEYCHAIN_SERVICE, warn: () => undefined })
  try {
    const schedules = await built.schedules?.()
    const profile = await built.profiles.find('Demo')
    const folder = await schedules?.chooseFolder()
    if (schedules === undefined || profile === null || folder === null || folder === undefined) throw new Error('setup')
    await schedules.save({
      name: 'Nightly',
      target: { kind: 'preset', name: 'Weekly EU' },
      profileId: profile.id,
      actions: { export: { format: 'csv', folderId: folder.id, fileNamePattern: '{preset} {start} to {end}' }, checkAlerts: false },
      cadence,
      timezone: 'computer',
      enabled: true,
    })
  } finally {
    await built.close()
  }
  return userData
}

/** The schedule was saved yesterday: its slots since then are due. */
async function backdate(userData: string): Promise<void> {
  const file = path.join(userData, 'schedules', 'schedules.json')
  const document = JSON.parse(await readFile(file, 'utf8')) as { schedules: Array<{ activeSince: string }> }
  for (const schedule of document.schedules) schedule.activeSince = new Date(Date.now() - 86_400_000).toISOString()
  await writeFile(file, JSON.stringify(document))
}

/** The built command line, started by `wrapper` (a shell that sets a limit, a mount namespace) when given. */
function start(userData: string, argv: string[], wrapper: string[] = []): SpawnedChild {
  const command = [process.execPath, freshBuild('out/cli/index.js'), ...argv, '--user-data', userData]
  const [program = '', ...args] = wrapper.length === 0 ? command : [...wrapper, ...command]
  const child = spawnChild(program, args, { env: { ADOPS_KEYCHAIN_SERVICE: KEYCHAIN_SERVICE }, stdin: '' })
  children.push(child)
  return child
}

async function finished(child: SpawnedChild): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const code = await child.exit
  return { code, stdout: child.stdout(), stderr: child.stderr() }
}

const exportCalls = (): number => requests.count('POST', EXPORT_PATH)
const ledgerLines = async (userData: string): Promise<Array<Record<string, unknown>>> =>
  (await readFile(path.join(userData, 'schedules', 'ledger.jsonl'), 'utf8').catch(() => ''))
    .split('\n')
    .filter((line) => line.startsWith('{"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)

/** What a crash prints: a stack frame, or Node's own word for a rejection nobody handled. */
function expectNoCrash(stderr: string, userData: string): void {
  expect(stderr).not.toMatch(/^\s+at /m)
  expect(stderr).not.toMatch(/unhandled|UnhandledPromiseRejection|triggerUncaughtException/i)
  expect(stderr).not.toContain(userData)
}

describe('a schedule run by the command line while the machine fails', () => {
  it('under a file-size limit the ledger cannot grow past: one export reaches the platform, the run says why in words and exits 1', async () => {
    const userData = await dataFolder({ kind: 'cron', expression: '* * * * *' })
    await backdate(userData)
    // 600 KiB (bash counts ulimit -f in 1024-byte blocks): the small CSV fits, the ledger, filled
    // past it yet under the rotation, cannot take one byte more. Node ignores SIGXFSZ: writes fail with EFBIG.
    const limitBlocks = 600
    const padding = `${' '.repeat(99)}\n`.repeat(Math.ceil((limitBlocks * 1024 + 20_000) / 100))
    expect(padding.length).toBeLessThan(LEDGER_MAX_BYTES)
    await writeFile(path.join(userData, 'schedules', 'ledger.jsonl'), padding)
    const before = exportCalls()

    const run = await finished(start(userData, ['schedules', 'run-due'], ['bash', '-c', `ulimit -f ${limitBlocks}; exec "$@"`, 'limited']))

    expect(exportCalls() - before).toBe(1)
    expect(run.code).not.toBe(0)
    expect(run.code).not.toBeNull()
    expect(run.stderr).toMatch(/line could not be written to the run ledger \(the disk is full, or a file there reached its size limit\)/)
    expectNoCrash(run.stderr, userData)
    // The export itself was written whole: the ledger was the write that failed.
    expect(await readdir(dialogFolders(userData).exports)).toEqual([expect.stringMatching(/^Weekly EU .*\.csv$/)])
  })

  it('with the lock folder a file: no export, a sentence that says why, exit 1', async () => {
    const userData = await dataFolder()
    await rm(path.join(userData, 'schedules', 'locks'), { recursive: true, force: true })
    await writeFile(path.join(userData, 'schedules', 'locks'), 'not a folder')
    const before = exportCalls()

    const run = await finished(start(userData, ['schedules', 'run', 'Nightly']))

    expect(exportCalls() - before).toBe(0)
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/could not take the schedule's run lock in its data folder \(a file is where a folder should be\)/)
    expectNoCrash(run.stderr, userData)
  })

  // As root chmod stops no write, so the folder is made read-only by a read-only bind mount in a
  // mount namespace of the run's own (unshare; as root it needs nothing more); elsewhere chmod does it.
  const root = process.getuid?.() === 0
  const canMountReadOnly = root && spawnSync('unshare', ['-m', '--propagation', 'private', 'true']).status === 0
  it.skipIf(root && !canMountReadOnly)('with the data folder read-only: no export, a sentence that says it is read-only, exit 1', async () => {
    const userData = await dataFolder()
    const before = exportCalls()
    let wrapper: string[] = []
    if (root) {
      wrapper = ['unshare', '-m', '--propagation', 'private', 'bash', '-c', 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"', userData]
    } else {
      for (const folder of [path.join(userData, 'schedules', 'locks'), path.join(userData, 'schedules'), userData]) await chmod(folder, 0o555)
    }

    const run = await finished(start(userData, ['schedules', 'run', 'Nightly'], wrapper))

    expect(exportCalls() - before).toBe(0)
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/could not take the schedule's run lock in its data folder \(the data folder is read-only, or its permissions changed\)/)
    expectNoCrash(run.stderr, userData)
  })

  it('killed mid-export and run again: the stale lock is taken over, the run completes once, one whole file, a readable ledger', async () => {
    const userData = await dataFolder()
    await mkdir(dialogFolders(userData).exports, { recursive: true })
    // The export request, once it arrives, waits on the backend: the process is killed while it waits.
    const exportArrived = new Promise<void>((resolve) => {
      const onStart = (message: unknown): void => {
        const { request, server } = message as { request: IncomingMessage; server: Server }
        if ((server.address() as AddressInfo | null)?.port !== sandbox.port || request.method !== 'POST' || !(request.url ?? '').includes(EXPORT_PATH)) return
        diagnosticsChannel.unsubscribe('http.server.request.start', onStart)
        sandbox.setFaults({ latency_ms: 20_000 })
        resolve()
      }
      diagnosticsChannel.subscribe('http.server.request.start', onStart)
    })
    const before = exportCalls()

    const killed = start(userData, ['schedules', 'run', 'Nightly'])
    await Promise.race([exportArrived, killed.exit.then(() => Promise.reject(new Error(`the run ended before its export: ${killed.stderr()}`)))])
    const locks = path.join(userData, 'schedules', 'locks')
    const [lockFile] = await readdir(locks)
    expect(JSON.parse(await readFile(path.join(locks, lockFile ?? ''), 'utf8'))).toMatchObject({ pid: killed.child.pid })
    expect(await killed.stop('SIGKILL')).toBeNull()
    sandbox.setFaults({ latency_ms: 0 })

    const again = await finished(start(userData, ['schedules', 'run', 'Nightly']))

    expect(again.stderr).toBe('')
    expect(again.code).toBe(0)
    expect(exportCalls() - before).toBe(2)
    const [line] = again.stdout.split('\n')
    expect(JSON.parse(line ?? '')).toMatchObject({ schedule: 'Nightly', outcome: 'ok', error: null })
    // The killed run wrote no line; the second wrote one, and the ledger reads whole.
    expect((await ledgerLines(userData)).map((entry) => entry.outcome)).toEqual(['ok'])
    expect(await readdir(locks)).toEqual([])
    expect(await readdir(dialogFolders(userData).exports)).toEqual([expect.stringMatching(/^Weekly EU .*\.csv$/)])
  })
})
