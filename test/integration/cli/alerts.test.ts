import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { alertRuleSchema } from '@contract'
import { createCliServices, type CliServicesFactory } from '../../../main/cli/services'
import { startSandbox, type Sandbox } from '../../../main/sandbox'
import { generateEntities } from '../../../main/sandbox/data/entities'
import { generateFacts } from '../../../main/sandbox/data/facts'
import { alertsFolder, createRuleStore } from '../../../main/services/alerts/rules-store'
import { createNotices } from '../../../main/services/notices'
import { createPresetStore, presetsFolder } from '../../../main/services/presets/preset-store'
import { demoPreset, demoRule } from '../alerts/demo-fixtures'
import { expectFailure, memoryKeychain, runInProcess, saveDemoProfile, type CliRun } from './support'

/** `alerts check` against the demo backend on a fixed day, so its incidents are where the test expects them. */
const NOW = new Date('2026-11-26T10:00:00Z')
const KEYCHAIN_SERVICE = 'AdOps Desk CLI alerts tests'
const keychain = memoryKeychain()
const services: CliServicesFactory = (context) =>
  createCliServices(context, {
    openKeychain: async () => keychain,
    now: () => NOW.getTime(),
    http: { random: () => 0.5, retry: { maxRetries: 1, baseDelayMs: 5, maxDelayMs: 20 } },
  })

const entities = generateEntities(1, 'small')
const { incidents } = generateFacts(1, 'small', Math.floor(NOW.getTime() / 86_400_000), entities)
const dropped = entities.publishers[incidents.droppedPublisher]!

let sandbox: Sandbox
let userData: string

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, now: () => NOW })
  userData = await mkdtemp(path.join(os.tmpdir(), 'adops-cli-alerts-'))
  const notices = createNotices()
  await saveDemoProfile({ info: sandbox.info, userData, keychain, keychainService: KEYCHAIN_SERVICE, notices })
  const presets = createPresetStore({ folder: presetsFolder(userData), notices })
  await presets.save({ name: 'Publishers', definition: demoPreset('publisher', 40) }, false)
  await presets.save({ name: 'No rules', definition: demoPreset('publisher', 10) }, false)
  await createRuleStore({ folder: alertsFolder(userData), notices }).save('Publishers', [alertRuleSchema.parse(demoRule)])
}, 60_000)
afterAll(async () => {
  await sandbox.close()
  await rm(userData, { recursive: true, force: true })
})
afterEach(() => sandbox.reset())

const cli = (argv: string[], stdin?: string): Promise<CliRun> =>
  runInProcess(argv, { services, env: { ADOPS_USER_DATA: userData, ADOPS_KEYCHAIN_SERVICE: KEYCHAIN_SERVICE }, ...(stdin === undefined ? {} : { stdin }) })

const request = {
  project_name: 'demo',
  slicer_name: 'supply',
  start_date: '-7d',
  end_date: 'yesterday',
  timezone: 0,
  granularity: 'granularity_day',
  split_by: ['publisher'],
  chart_lines: [String(dropped.id), '__total__'],
  data_field: 'impressions',
  token: 'ignored',
}

describe('alerts check', () => {
  it("checks a preset's saved rules: one JSON line per firing, exit 3", async () => {
    const run = await cli(['alerts', 'check', '--preset', 'Publishers', '--profile', 'Demo'])
    expect(run.stderr).toBe('')
    expect(run.code).toBe(3)
    const lines = run.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({ preset: 'Publishers', rule: 'volume', series: `${dropped.id} — ${dropped.name}`, bucket: '2026-11-25' })
    expect(lines[0]?.change_pct).toBeLessThan(-50)
    expect(Object.keys(lines[0] ?? {})).toEqual(['preset', 'rule', 'series', 'bucket', 'value', 'baseline', 'change_pct', 'z'])
  })

  it('writes csv with --format csv', async () => {
    const run = await cli(['alerts', 'check', '--preset', 'Publishers', '--profile', 'Demo', '--format', 'csv'])
    expect(run.code).toBe(3)
    const rows = run.stdout.split('\r\n').filter((line) => line !== '')
    expect(rows[0]).toBe('preset,rule,series,bucket,value,baseline,change_pct,z')
    expect(rows).toHaveLength(2)
    expect(rows[1]).toMatch(new RegExp(`^Publishers,volume,${dropped.id} — ${dropped.name},2026-11-25,`))
  })

  it('checks one rule over a time_series request given on standard input', async () => {
    const body = JSON.stringify(request)
    const fired = await cli(
      ['alerts', 'check', '--request', '-', '--metric', 'impressions', '--drop', '40', '--min-baseline', '20000', '--profile', 'Demo'],
      body,
    )
    expect(fired.stderr).toBe('')
    expect(fired.code).toBe(3)
    expect(
      fired.stdout
        .trimEnd()
        .split('\n')
        .map((line) => (JSON.parse(line) as { series: string; bucket: string }).series),
    ).toEqual([`${dropped.id} — ${dropped.name}`])
    // Nothing rose: exit 0 and nothing at all on stdout.
    const quiet = await cli(
      ['alerts', 'check', '--request', '-', '--metric', 'impressions', '--rise', '40', '--min-baseline', '20000', '--profile', 'Demo'],
      body,
    )
    expect(quiet).toEqual({ code: 0, stdout: '', stderr: '' })
  })

  it('exits 2 on usage errors, before connecting', async () => {
    expectFailure(await cli(['alerts', 'check', '--profile', 'Demo']), 2, /needs --preset NAME\|FILE or --request FILE/)
    expectFailure(
      await cli(['alerts', 'check', '--request', '-', '--metric', 'impressions', '--drop', '30', '--rise', '30'], '{}'),
      2,
      /exactly one of --drop PCT or --rise PCT/,
    )
    expectFailure(await cli(['alerts', 'check', '--request', '-', '--metric', 'impressions', '--drop', 'thirty'], '{}'), 2, /--drop takes a number from 0/)
    expectFailure(await cli(['alerts', 'check', '--preset', 'No rules', '--profile', 'Demo']), 2, /"No rules" has no alert rules/)
    expectFailure(await cli(['alerts', 'check', '--preset', 'Publishers', '--drop', '30']), 2, /--drop goes with --request/)
  })

  it('exits 1 when the platform fails', async () => {
    sandbox.setFaults({ fail_rate: 1 })
    const run = await cli(['alerts', 'check', '--preset', 'Publishers', '--profile', 'Demo'])
    expect(run.code).toBe(1)
    expect(run.stdout).toBe('')
  })
})
