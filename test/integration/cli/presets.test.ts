import { mkdir, mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { ReportDefinition, TimeSeriesView } from '@contract'
import { startSandbox, type Sandbox } from '../../../main/sandbox'
import { createRunHistoryStore, runHistoryFolder } from '../../../main/services/run-history/run-history-store'
import { createNotices } from '../../../main/services/notices'
import { presetFileText } from '../../../main/services/presets/format'
import { createPresetStore, presetsFolder } from '../../../main/services/presets/preset-store'
import { createResultCache, resultsFolder } from '../../../main/services/results/result-cache'
import { sampleDefinition } from '../../support/channel-samples'
import { expectFailure, expectSuccess, memoryKeychain, ownLines, runInProcess, sandboxFlags, saveDemoProfile, testServices, type CliRun } from './support'

const KEYCHAIN_SERVICE = 'AdOps Desk CLI preset tests'

let sandbox: Sandbox
let userData: string
let work: string
const keychain = memoryKeychain()
const services = testServices(keychain)

const weekly: ReportDefinition = {
  ...sampleDefinition,
  dates: { start: '-7d', end: 'yesterday' },
  timezone: { mode: 'fixed', offset: 3 },
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

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 })
  userData = await mkdtemp(path.join(os.tmpdir(), 'adops-cli-presets-'))
  work = await mkdtemp(path.join(os.tmpdir(), 'adops-cli-presets-work-'))
  const notices = createNotices()
  await saveDemoProfile({ info: sandbox.info, userData, keychain, keychainService: KEYCHAIN_SERVICE, notices })
  // Saved the way the app saves them.
  const presets = createPresetStore({ folder: presetsFolder(userData), notices })
  await presets.save({ name: 'Weekly EU', definition: weekly, description: 'Monday call' }, false)
  await presets.save(
    { name: 'Two metrics', definition: { ...weekly, metrics: ['impressions', 'revenue'], lines: { mode: 'pick', values: ['DE'], includeTotal: false } } },
    false,
  )
  await presets.save({ name: 'Stale metric', definition: { ...weekly, metrics: ['metric_deleted_since'] } }, false)
})
afterAll(async () => {
  await sandbox.close()
  await rm(userData, { recursive: true, force: true })
  await rm(work, { recursive: true, force: true })
})
afterEach(() => {
  sandbox.reset()
})

const env = (extra: Record<string, string> = {}): Record<string, string> => ({ ADOPS_USER_DATA: userData, ADOPS_KEYCHAIN_SERVICE: KEYCHAIN_SERVICE, ...extra })
const cli = (argv: string[], options: { env?: Record<string, string>; stdin?: string } = {}): Promise<CliRun> =>
  runInProcess(argv, { services, env: options.env ?? env(), ...(options.stdin === undefined ? {} : { stdin: options.stdin }) })
const flags = (): string[] => sandboxFlags(sandbox.info, { withBaseUrl: false })

describe('presets list and show', () => {
  it('lists the saved presets as JSON and CSV, without connecting', async () => {
    const run = await cli(['presets', 'list'])
    expectSuccess(run)
    const listed = JSON.parse(run.stdout) as Array<{ name: string; description: string; metrics: string[] }>
    expect(listed.map((preset) => preset.name)).toEqual(['Stale metric', 'Two metrics', 'Weekly EU'])
    expect(listed[2]).toMatchObject({
      description: 'Monday call',
      project: 'demo',
      report: 'supply',
      metrics: ['impressions'],
      dates: { start: '-7d', end: 'yesterday' },
    })

    const csv = await cli(['presets', 'list', '--format', 'csv'])
    expectSuccess(csv)
    const lines = csv.stdout.split('\r\n').filter((line) => line !== '')
    expect(lines[0]).toBe('name,project,report,metrics,breakdown,start,end,saved_at,description')
    // A token that starts with "-" is written as text, so a spreadsheet never reads it as a formula.
    expect(lines[2]).toMatch(/^Two metrics,demo,supply,impressions revenue,country,"'-7d",yesterday,/)
  })

  it('a preset file of a newer version is named on stderr and the others still listed', async () => {
    const file = path.join(presetsFolder(userData), 'future.json')
    await writeFile(file, JSON.stringify({ version: 9, name: 'Future' }))
    try {
      const run = await cli(['presets', 'list'])
      expect(run.code).toBe(0)
      expect((JSON.parse(run.stdout) as unknown[]).length).toBe(3)
      expect(ownLines(run.stderr)).toEqual([
        'adops-desk: warning: future.json was left as it is because it was saved by a newer version of AdOps Desk (preset format 9; this version reads up to 1). Update AdOps Desk to open it.',
      ])
    } finally {
      await rm(file)
    }
  })

  it('shows a preset exactly as its file holds it, by name in any case', async () => {
    const run = await cli(['presets', 'show', 'weekly eu'])
    expectSuccess(run)
    expect(run.stdout).toBe(await readFile(path.join(presetsFolder(userData), 'weekly-eu.json'), 'utf8'))
    expect(JSON.parse(run.stdout)).toMatchObject({ version: 1, name: 'Weekly EU', definition: weekly })
    expectFailure(
      await cli(['presets', 'show', 'Nope']),
      2,
      /^adops-desk: No preset is named "Nope"\. Run "presets list" to see them\. See "adops-desk presets show --help"\.$/,
    )
  })
})

describe('report run --preset', () => {
  it('runs a saved preset against the platform: CSV of the category then one column per series, the numbers the platform gives', async () => {
    const run = await cli(['report', 'run', '--preset', 'Weekly EU', '--profile', 'Demo', '--format', 'csv'])
    expectSuccess(run)
    const lines = run.stdout.split('\r\n').filter((line) => line !== '')
    expect(lines[0]).toBe('granularity_day,DE — Germany,FR — France,Total')
    // The same request, sent as it is through the command line's own time-series command.
    const direct = await cli(['report', 'time-series', '--request', '-', '--profile', 'Demo'], {
      stdin: JSON.stringify({
        project_name: 'demo',
        slicer_name: 'supply',
        start_date: '-7d',
        end_date: 'yesterday',
        timezone: 3,
        granularity: 'granularity_day',
        split_by: ['country'],
        chart_lines: ['DE', 'FR', '__total__'],
        data_field: 'impressions',
      }),
    })
    expectSuccess(direct)
    const rows = (JSON.parse(direct.stdout) as { rows: Array<Record<string, unknown>> }).rows
    expect(rows).toHaveLength(7)
    expect(lines.slice(1)).toEqual(rows.map((row) => [row.__time__, row.DE ?? '', row.FR ?? '', row.__total__ ?? ''].join(',')))
  })

  it("with --profile the run is kept in the app's history and its result in the app's cache", async () => {
    const history = createRunHistoryStore({ folder: runHistoryFolder(userData), notices: createNotices() })
    const before = (await history.list({ preset: 'Two metrics' })).total
    const run = await cli(['report', 'run', '--preset', 'two METRICS', '--profile', 'Demo'])
    expectSuccess(run)
    const result = JSON.parse(run.stdout) as TimeSeriesView
    expect(result.series.map((series) => series.key)).toEqual(['impressions|DE', 'revenue|DE'])
    expect(result.reduced).toBe(false)

    const after = await createRunHistoryStore({ folder: runHistoryFolder(userData), notices: createNotices() }).list({ preset: 'Two metrics' })
    expect(after.total).toBe(before + 1)
    expect(after.entries[0]).toMatchObject({
      connection: 'Demo',
      preset: 'Two metrics',
      outcome: 'ok',
      rows: 7,
      range: { start: result.range.start, end: result.range.end, timezone: 3 },
    })
    const profileId = after.entries[0]?.profileId ?? ''
    const cache = createResultCache({ folder: resultsFolder(userData), limitBytes: async () => 1e9, notices: createNotices() })
    const cached = await cache.get(
      profileId,
      'chart',
      (await createPresetStore({ folder: presetsFolder(userData), notices: createNotices() }).get('Two metrics')).definition,
      'Two metrics',
    )
    expect(cached).toEqual({ kind: 'chart', preset: 'Two metrics', ranAt: result.ranAt, result })
  })

  it('runs a preset file with a connection from flags, writes --out whole, and leaves no history behind', async () => {
    const file = path.join(work, 'exported.json')
    await writeFile(file, presetFileText({ name: 'From a file', description: '', savedAt: '2026-01-01T00:00:00.000Z', definition: weekly }))
    const history = () => createRunHistoryStore({ folder: runHistoryFolder(userData), notices: createNotices() }).list({})
    const before = (await history()).total
    const out = path.join(work, 'weekly.json')
    const run = await cli(['report', 'run', '--preset', file, '--out', out, ...flags()], { env: env({ ADOPS_PASSWORD: 'demo' }) })
    expectSuccess(run)
    const summary = JSON.parse(run.stdout) as { path: string; categories: number; series: number; preset: string }
    expect(summary).toMatchObject({ path: out, format: 'json', preset: 'From a file', categories: 7, series: 3 })
    const written = JSON.parse(await readFile(out, 'utf8')) as TimeSeriesView
    expect(written.series.map((series) => series.line)).toEqual(['DE', 'FR', '__total__'])
    expect((await history()).total).toBe(before)
  })

  it('exit 2 for usage: no --preset, an unknown name, a bad --format, a file from a newer version or a bundle', async () => {
    expectFailure(await cli(['report', 'run', '--profile', 'Demo']), 2, /needs --preset NAME or --preset FILE/)
    expectFailure(
      await cli(['report', 'run', '--preset', 'Monthly', '--profile', 'Demo']),
      2,
      /No preset is named "Monthly"\. Run "presets list" to see them, or give a preset file\./,
    )
    expectFailure(await cli(['report', 'run', '--preset', 'Weekly EU', '--format', 'xlsx', '--profile', 'Demo']), 2, /--format must be json or csv, not "xlsx"/)
    const newer = path.join(work, 'newer.json')
    await writeFile(newer, JSON.stringify({ version: 2, name: 'x' }))
    expectFailure(
      await cli(['report', 'run', '--preset', newer, '--profile', 'Demo']),
      2,
      /newer\.json cannot be run because it was saved by a newer version of AdOps Desk/,
    )
    await mkdir(path.join(work, 'folder'), { recursive: true })
    expectFailure(
      await cli(['report', 'run', '--preset', path.join(work, 'missing.json'), '--profile', 'Demo']),
      2,
      /Cannot read the preset file .*missing\.json \(ENOENT\)/,
    )
  })

  it("exit 2 for a preset file far bigger than a preset, without reading it (bounded like the app's Import)", async () => {
    const huge = path.join(work, 'huge.json')
    // Sparse: 21 MB on paper, nothing on disk.
    await writeFile(huge, '')
    await truncate(huge, 21 * 1024 * 1024)
    expectFailure(
      await cli(['report', 'run', '--preset', huge, '--profile', 'Demo']),
      2,
      /^adops-desk: huge\.json cannot be run because it is 21 MB or more, far too big to be a preset \(a preset file is at most 20 MB\)\./,
    )
    expectFailure(
      await cli(['report', 'run', '--preset', path.join(work, 'folder'), '--profile', 'Demo']),
      2,
      /folder cannot be run because it is not a file\./,
    )
  })

  it('exit 1 for what the platform refuses or fails, one line on stderr', async () => {
    expectFailure(await cli(['report', 'run', '--preset', 'Stale metric', '--profile', 'Demo']), 1, /"metric_deleted_since" is not a metric of .+\/supply/)
    sandbox.setFaults({ report_status: 'internal_error' })
    expectFailure(await cli(['report', 'run', '--preset', 'Weekly EU', '--profile', 'Demo']), 1, /status internal_error/)
    const failed = await createRunHistoryStore({ folder: runHistoryFolder(userData), notices: createNotices() }).list({ outcome: 'error', preset: 'Weekly EU' })
    expect(failed.entries[0]).toMatchObject({ outcome: 'error', error: expect.stringMatching(/\S/) })
  })
})
