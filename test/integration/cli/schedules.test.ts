import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { alertRuleSchema, type ReportDefinition } from '@contract'
import { startSandbox, type Sandbox } from '../../../main/sandbox'
import { alertsFolder, createRuleStore } from '../../../main/services/alerts/rules-store'
import { boardsFolder, createBoardStore } from '../../../main/services/boards/board-store'
import { dialogFolders } from '../../../main/services/files/folder-dialogs'
import { createNotices } from '../../../main/services/notices'
import { createPresetStore, presetsFolder } from '../../../main/services/presets/preset-store'
import { sampleDefinition } from '../../support/channel-samples'
import { pdfText } from '../../support/pdf-text'
import { demoPreset, demoRule } from '../alerts/demo-fixtures'
import { memoryKeychain, ownLines, runInProcess, saveDemoProfile, testServices, type CliRun } from './support'

const KEYCHAIN_SERVICE = 'AdOps Desk CLI schedule tests'

let sandbox: Sandbox
let userData: string
const keychain = memoryKeychain()
const services = testServices(keychain)

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

const env = { ADOPS_USER_DATA: '', ADOPS_KEYCHAIN_SERVICE: KEYCHAIN_SERVICE }
const cli = (argv: string[]): Promise<CliRun> => runInProcess(argv, { services, env: { ...env, ADOPS_USER_DATA: userData } })
const lines = (text: string) =>
  text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>)

/** The app was closed since yesterday: the schedules' slots since then count as missed. */
async function backdateSchedules(): Promise<void> {
  const file = path.join(userData, 'schedules', 'schedules.json')
  const document = JSON.parse(await readFile(file, 'utf8')) as { schedules: Array<{ activeSince: string }> }
  for (const schedule of document.schedules) schedule.activeSince = new Date(Date.now() - 2 * 86_400_000).toISOString()
  await writeFile(file, JSON.stringify(document))
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 })
  userData = await mkdtemp(path.join(os.tmpdir(), 'adops-cli-schedules-'))
  const notices = createNotices()
  await saveDemoProfile({ info: sandbox.info, userData, keychain, keychainService: KEYCHAIN_SERVICE, notices })
  const presets = createPresetStore({ folder: presetsFolder(userData), notices })
  await presets.save({ name: 'Weekly EU', definition: weekly, description: '' }, false)
  await presets.save({ name: 'Short lived', definition: weekly, description: '' }, false)
  // Made through the same service the app uses (here the command line's build of it).
  const built = services({ userDataDir: userData, keychainService: KEYCHAIN_SERVICE, warn: () => undefined })
  const schedules = await built.schedules?.()
  const profile = await built.profiles.find('Demo')
  if (schedules === undefined || profile === null) throw new Error('setup')
  const folder = await schedules.chooseFolder()
  if (folder === null) throw new Error('setup')
  const base = {
    profileId: profile.id,
    actions: { export: { format: 'csv' as const, folderId: folder.id, fileNamePattern: '{preset} {start} to {end}' }, checkAlerts: false },
    cadence: { kind: 'daily' as const, at: '00:00' },
    timezone: 'computer' as const,
    enabled: true,
  }
  await schedules.save({ ...base, name: 'Morning file', target: { kind: 'preset', name: 'Weekly EU' } })
  await schedules.save({ ...base, name: 'Orphan', target: { kind: 'preset', name: 'Short lived' }, enabled: false })
  await presets.delete('Short lived')
  await built.close()
})
afterAll(async () => {
  await sandbox.close()
  await rm(userData, { recursive: true, force: true })
})

describe('schedules on the command line', () => {
  it('run-due runs a missed slot once against the platform, writes the file and a ledger line with source os', async () => {
    await backdateSchedules()
    const first = await cli(['schedules', 'run-due'])
    expect(first.stderr).toBe('')
    expect(first.code).toBe(0)
    const [run, ...more] = lines(first.stdout)
    expect(more).toEqual([])
    expect(run).toMatchObject({ schedule: 'Morning file', outcome: 'ok', error: null, attempts: 1 })
    expect(run?.file).toMatch(/^Weekly EU \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d\.csv$/)
    expect(await readdir(dialogFolders(userData).exports)).toEqual([run?.file])
    const ledger = (await readFile(path.join(userData, 'schedules', 'ledger.jsonl'), 'utf8')).trim().split('\n').filter(Boolean)
    expect(JSON.parse(ledger.at(-1) ?? '{}')).toMatchObject({ source: 'os', trigger: 'schedule' })

    // The slot is handled: a second call runs nothing and says nothing.
    const second = await cli(['schedules', 'run-due'])
    expect(second).toEqual({ code: 0, stdout: '', stderr: '' })
  })

  it('lists the schedules as JSON lines, with when the OS entry last ran each', async () => {
    const run = await cli(['schedules', 'list'])
    expect(run.code).toBe(0)
    const listed = lines(run.stdout)
    expect(listed.map((schedule) => schedule.name)).toEqual(['Morning file', 'Orphan'])
    expect(listed[0]).toMatchObject({ cadence: "Every day at 00:00, computer's timezone", enabled: true, last_run: { outcome: 'ok' } })
    expect(listed[0]?.os_last_run).toEqual(expect.any(String))
  })

  it('runs one by name; a failure prints its line, one sentence on stderr, and exits 1; an unknown name exits 2', async () => {
    const ok = await cli(['schedules', 'run', 'morning FILE'])
    expect(ok.code).toBe(0)
    expect(lines(ok.stdout)[0]).toMatchObject({ outcome: 'ok', planned_at: null })

    const failed = await cli(['schedules', 'run', 'Orphan'])
    expect(failed.code).toBe(1)
    expect(lines(failed.stdout)[0]).toMatchObject({ outcome: 'failed', error: expect.stringMatching(/^The preset "Short lived" was deleted/) })
    expect(ownLines(failed.stderr)).toHaveLength(1)

    const unknown = await cli(['schedules', 'run', 'Nope'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toMatch(/No schedule is named "Nope"/)
  })

  it("run-due checks a schedule's alerts on its own connection and records how many fired in the ledger", async () => {
    // The demo's bidder that spiked the day before yesterday: judged whatever the hour, whatever the data lag.
    const notices = createNotices()
    const presets = createPresetStore({ folder: presetsFolder(userData), notices })
    await presets.save({ name: 'Bidders', definition: demoPreset('bidder', 25), description: '' }, false)
    // A doubling at least: the spiking bidder more than doubles (163% on 2026-11-25), while the lift
    // it gives Total crosses the shared rule's 40% on some days only (41.4% that day), and the count
    // then followed the calendar instead of the spike.
    await createRuleStore({ folder: alertsFolder(userData), notices }).save('Bidders', [alertRuleSchema.parse({ ...demoRule, minChangePct: 100 })])
    const built = services({ userDataDir: userData, keychainService: KEYCHAIN_SERVICE, warn: () => undefined })
    const profile = await built.profiles.find('Demo')
    if (profile === null) throw new Error('setup')
    const schedules = await built.schedules?.()
    await schedules?.save({
      name: 'Watch bidders',
      target: { kind: 'preset', name: 'Bidders' },
      profileId: profile.id,
      actions: { export: null, checkAlerts: true },
      cadence: { kind: 'daily', at: '00:00' },
      timezone: 'computer',
      enabled: true,
    })
    await built.close()
    await backdateSchedules()

    const run = await cli(['schedules', 'run-due'])
    expect(run.stderr).toBe('')
    const [entry, ...more] = lines(run.stdout)
    expect(more).toEqual([])
    expect(entry).toMatchObject({ schedule: 'Watch bidders', outcome: 'ok', error: null, alerts_fired: 1 })
    expect(run.code).toBe(0)
    const ledger = (await readFile(path.join(userData, 'schedules', 'ledger.jsonl'), 'utf8')).trim().split('\n').filter(Boolean)
    expect(JSON.parse(ledger.at(-1) ?? '{}')).toMatchObject({ source: 'os', alertsFired: 1 })
  })

  it('a board schedule run from the OS entry writes the board as a PDF into its folder, its tiles run on the schedule’s connection', async () => {
    const notices = createNotices()
    await createBoardStore({ folder: boardsFolder(userData), notices }).save(
      {
        name: 'Monday board',
        description: '',
        savedAt: '2026-11-26T06:00:00.000Z',
        overrides: { dates: null, timezone: null, profileId: null },
        tiles: [
          { id: 'a', title: 'EU impressions', source: { kind: 'preset', preset: 'Weekly EU' }, view: 'chart', place: { x: 0, y: 0, w: 8, h: 4 } },
          { id: 'b', title: 'EU total', source: { kind: 'preset', preset: 'Weekly EU' }, view: 'number', place: { x: 8, y: 0, w: 4, h: 2 } },
        ],
      },
      false,
    )
    const built = services({ userDataDir: userData, keychainService: KEYCHAIN_SERVICE, warn: () => undefined })
    const schedules = await built.schedules?.()
    const profile = await built.profiles.find('Demo')
    const folder = await schedules?.chooseFolder()
    if (schedules === undefined || profile === null || folder === null || folder === undefined) throw new Error('setup')
    await schedules.save({
      name: 'Monday PDF',
      target: { kind: 'board', name: 'Monday board' },
      profileId: profile.id,
      actions: { export: { format: 'pdf', folderId: folder.id, fileNamePattern: '{preset} {date}' }, checkAlerts: false },
      cadence: { kind: 'daily', at: '00:00' },
      timezone: 'computer',
      enabled: false,
    })
    await built.close()

    const run = await cli(['schedules', 'run', 'Monday PDF'])
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const [entry] = lines(run.stdout)
    expect(entry).toMatchObject({ schedule: 'Monday PDF', outcome: 'ok', error: null })
    expect(entry?.file).toMatch(/^Monday board \d{4}-\d\d-\d\d\.pdf$/)
    const read = await pdfText(new Uint8Array(await readFile(path.join(dialogFolders(userData).exports, String(entry?.file)))))
    expect(read.pages).toBe(1)
    const text = read.text.replace(/\s+/g, ' ')
    for (const expected of ['Monday board', 'EU impressions', 'EU total', 'Connection: Demo']) expect(text).toContain(expected)
    expect(text).toMatch(/as of \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/)
    expect(text).not.toContain('No data')
  })
})
