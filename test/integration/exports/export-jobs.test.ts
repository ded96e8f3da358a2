import { promises as fs } from 'node:fs'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { EventName, EventPayload, ExportFormat, ExportJob, ExportOptions, ReportDefinition } from '@contract'
import { startSandbox, type Sandbox } from '../../../main/sandbox'
import { dispatch } from '../../../main/handlers/dispatch'
import { createHandlers } from '../../../main/handlers/handlers'
import { createEventHub } from '../../../main/services/events'
import { createExportJobHistory } from '../../../main/services/exports/job-history'
import { createExportService, type ExportService } from '../../../main/services/exports/jobs'
import type { FileDialogs } from '../../../main/services/files/dialogs'
import { createNotices } from '../../../main/services/notices'
import type { SaveFs } from '../../../main/services/reporting/save-export'
import { sampleDefinition } from '../../support/channel-samples'
import { createMemoryKeychain } from '../../support/memory-keychain'
import { createTestServices, temporaryFolder } from '../../support/services'
import { startPlatformProxy, type PlatformProxy } from './platform-proxy'

type TestServices = Awaited<ReturnType<typeof createTestServices>>

/** A native save dialog that accepts the name it suggests (replacing a file of that name, as the user confirmed), in the test's folder. */
function acceptingDialog(folder: () => string): FileDialogs {
  return { chooseSavePath: async (defaultName) => path.join(folder(), defaultName), chooseOpenPaths: async () => [] }
}

function yesterdayMinus(days: number): string {
  const day = new Date(Date.now() - (days + 1) * 86_400_000)
  return day.toISOString().slice(0, 10)
}

/** Absolute dates and a fixed offset, so the request can be written out by hand below. */
const range = { start: yesterdayMinus(6), end: yesterdayMinus(0) }
const definition: ReportDefinition = {
  ...sampleDefinition,
  dates: range,
  timezone: { mode: 'fixed', offset: 0 },
  metrics: ['impressions', 'revenue'],
  granularity: 'granularity_day',
  breakdown: ['country'],
  filters: [],
  filterLogic: '',
  metricConditions: [],
  metricConditionLogic: '',
  sort: [],
}
const source = { kind: 'definition' as const, definition }

/** The platform request these options stand for, written by hand: what the sandbox's own export answers. */
function directRequest(format: ExportFormat, keys: string[]): Record<string, unknown> {
  return {
    project_name: 'demo',
    slicer_name: 'supply',
    start_date: range.start,
    end_date: range.end,
    timezone: 0,
    split_by: keys,
    data_fields: ['impressions', 'revenue'],
    include_mappings: 1,
    include_total: 0,
    export_format: format,
  }
}

async function sandboxExport(sandbox: Sandbox, body: Record<string, unknown>): Promise<Buffer> {
  const response = await fetch(`${sandbox.info.report_url}/API/v2/export`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...body, token: sandbox.info.permanent_token }),
  })
  expect(response.status).toBe(200)
  return Buffer.from(await response.arrayBuffer())
}

/** Resolves with the first event of that name the test accepts. */
function nextEvent<E extends EventName>(
  services: { events: TestServices['events'] },
  name: E,
  accept: (payload: EventPayload<E>) => boolean = () => true,
): Promise<EventPayload<E>> {
  return new Promise((resolve) => {
    const stop = services.events.subscribe((event: EventName, payload: unknown) => {
      if (event !== name || !accept(payload as EventPayload<E>)) return
      stop()
      resolve(payload as EventPayload<E>)
    })
  })
}

async function leftovers(folder: string): Promise<string[]> {
  return (await fs.readdir(folder)).filter((name) => name.endsWith('.tmp'))
}

describe('export jobs against the sandbox', () => {
  const keychain = createMemoryKeychain()
  let sandbox: Sandbox
  let proxy: PlatformProxy
  let folder: string
  let services: TestServices
  let profileId: string

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 })
    proxy = await startPlatformProxy(sandbox.info.report_url)
    services = await createTestServices({ keychain, fileDialogs: acceptingDialog(() => folder) })
    const { info } = sandbox
    const profile = await services.profiles.create({
      name: 'Sandbox behind a proxy',
      baseUrl: info.base_url,
      authUrl: info.auth_url,
      reportUrl: proxy.reportUrl,
      serviceId: info.service_id,
      auth: { method: 'password', username: info.username, password: info.password },
    })
    profileId = profile.id
  })
  // Each test its own folder: a file left by one cannot pass for another's.
  beforeEach(async () => {
    folder = await temporaryFolder('adops-exports-')
  })
  afterEach(() => {
    proxy.mode = { kind: 'pass' }
    sandbox.setFaults({ drop_export_after_bytes: 0 })
  })
  afterAll(async () => {
    await services.close()
    await proxy.close()
    await sandbox.close()
  })

  async function exportTo(options: ExportOptions, service: ExportService = services.exports): Promise<{ job: ExportJob; target: string }> {
    const started = await service.start(profileId, source, options)
    if (started === null) throw new Error('the dialog was cancelled')
    const job = await service.whenEnded(started.jobId)
    return { job, target: path.join(folder, job.fileName) }
  }

  it.each(['csv', 'tsv', 'xlsx'] as const)("a %s job writes exactly the bytes of the sandbox's own export, with progress and rows", async (format) => {
    const progress: number[] = []
    const stop = services.events.subscribe((event, payload) => {
      if (event === 'onExportProgress') progress.push((payload as EventPayload<'onExportProgress'>).bytes)
    })
    const done = nextEvent(services, 'onExportDone')
    // In the API's names, with no date to type, the file is the platform's own bytes.
    const { job, target } = await exportTo({ format, keys: ['page_url'], apiColumnNames: true })
    stop()
    const expected = await sandboxExport(sandbox, directRequest(format, ['page_url']))
    const written = await fs.readFile(target)
    expect(job).toMatchObject({ state: 'done', format, bytes: expected.length, error: null, fileName: expect.stringMatching(new RegExp(`\\.${format}$`)) })
    expect(written.equals(expected)).toBe(true)
    expect(await done).toMatchObject({ id: job.id, state: 'done' })
    expect(progress.at(-1)).toBe(expected.length)
    if (format === 'xlsx') expect(job.rows).toBeNull()
    else expect(job.rows).toBe(expected.toString('utf8').trimEnd().split('\n').length - 1)
    expect(job.capped).toBe(format === 'xlsx' ? null : false)
    expect(await leftovers(folder)).toEqual([])
  })

  it.each(['csv', 'tsv'] as const)('notices the Others row of a capped %s export, Total after it or not', async (format) => {
    proxy.mode = { kind: 'cap', rows: 5 }
    const { job, target } = await exportTo({ format, keys: ['country'] })
    expect(job).toMatchObject({ state: 'done', capped: true, rows: 6 })
    expect(job.notes.join(' ')).toContain('The platform capped this export at 1,000,000 rows')
    expect((await fs.readFile(target, 'utf8')).trimEnd().split('\n').at(-1)).toMatch(/^Others[,\t]/)
    // An uncapped export of the same report says nothing of the kind.
    proxy.mode = { kind: 'pass' }
    const plain = await exportTo({ format, keys: ['country'], includeTotal: true })
    expect(plain.job).toMatchObject({ state: 'done', capped: false, notes: [] })
  })

  it('previews the first rows of a finished csv, parsed in main', async () => {
    const { job, target } = await exportTo({ format: 'csv', keys: ['country'] })
    const preview = await services.exports.preview(job.id)
    const lines = (await fs.readFile(target, 'utf8')).trimEnd().split('\r\n')
    // The header as the screens name the columns; a label with a comma is quoted.
    expect(lines[0]).toBe('Country,Country name,Impressions,"Revenue, USD"')
    expect(preview.columns).toEqual(['Country', 'Country name', 'Impressions', 'Revenue, USD'])
    expect(preview.rows).toHaveLength(lines.length - 1)
    expect(preview.rows[0]).toEqual(lines[1]?.split(','))
    expect(preview.more).toBe(false)
  })

  it('a dropped connection fails with a sentence and leaves no file', async () => {
    sandbox.setFaults({ drop_export_after_bytes: 20_000 })
    const { job, target } = await exportTo({ format: 'csv', keys: ['page_url'] })
    expect(job.state).toBe('failed')
    expect(job.error).toMatch(/^The connection to the platform dropped after \d/)
    await expect(fs.access(target)).rejects.toThrow()
    expect(await leftovers(folder)).toEqual([])
  })

  it('a platform answering a JSON error instead of a file fails with its reason and leaves no file', async () => {
    proxy.mode = { kind: 'json', body: { status: 'bad_request', reason: 'Invalid parameter split_by: the export would have 2000000 rows' } }
    const { job, target } = await exportTo({ format: 'csv', keys: ['page_url', 'country'] })
    expect(job.state).toBe('failed')
    expect(job.error).toContain('Invalid parameter split_by')
    await expect(fs.access(target)).rejects.toThrow()
    proxy.mode = { kind: 'json', body: { status: 'success', rows: [] } }
    const success = await exportTo({ format: 'xlsx', keys: ['page_url'] })
    expect(success.job).toMatchObject({ state: 'failed', error: expect.stringContaining('JSON instead of a file') })
    await expect(fs.access(success.target)).rejects.toThrow()
    expect(await leftovers(folder)).toEqual([])
  })

  it('a full disk fails with a sentence, leaves no file, and keeps a file that was there', async () => {
    const full: SaveFs = {
      rename: fs.rename,
      rm: fs.rm,
      async open(...args: Parameters<typeof fs.open>) {
        const handle = await fs.open(...args)
        let written = 0
        return new Proxy(handle, {
          get(target, property) {
            if (property === 'write') {
              return async (chunk: Uint8Array) => {
                if (written + chunk.length > 1024) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28 })
                written += chunk.length
                return target.write(chunk)
              }
            }
            const value: unknown = Reflect.get(target, property)
            return typeof value === 'function' ? (value as (...inner: unknown[]) => unknown).bind(target) : value
          },
        })
      },
    }
    const history = await temporaryFolder('adops-export-history-')
    const service = createExportService({
      reportingOf: async (id) => (await services.workspace.connection(id)).reporting,
      infoOf: (id, project, report, signal) => services.reports.info(id, project, report, { signal }),
      presetOf: async () => definition,
      dialog: acceptingDialog(() => folder),
      jobHistory: createExportJobHistory(path.join(history, 'history.json'), createNotices()),
      events: createEventHub(),
      notices: createNotices(),
      fs: full,
    })
    const target = path.join(folder, `demo-supply-${range.start}-${range.end}.csv`)
    await fs.writeFile(target, "the user's own file\n")
    const { job } = await exportTo({ format: 'csv', keys: ['page_url'] }, service)
    expect(job.state).toBe('failed')
    expect(job.error).toMatch(/^The disk is full/)
    // The sentence reaches the page: names only, no path.
    expect(job.error).not.toContain(folder)
    expect(await fs.readFile(target, 'utf8')).toBe("the user's own file\n")
    expect(await leftovers(folder)).toEqual([])
    await fs.rm(target)
  })

  it("a scheduled export that fails leaves the notification to its schedule; a user's export that fails notifies", async () => {
    const ended: Array<{ title: string; failed: boolean }> = []
    const service = createExportService({
      reportingOf: async (id) => (await services.workspace.connection(id)).reporting,
      infoOf: (id, project, report, signal) => services.reports.info(id, project, report, { signal }),
      presetOf: async () => definition,
      dialog: acceptingDialog(() => folder),
      jobHistory: createExportJobHistory(path.join(await temporaryFolder('adops-export-history-'), 'history.json'), createNotices()),
      events: createEventHub(),
      notices: createNotices(),
      signals: { progress: () => undefined, ended: ({ title, failed }) => void ended.push({ title, failed }) },
    })
    proxy.mode = { kind: 'json', body: { status: 'bad_request', reason: 'Invalid parameter split_by' } }
    const scheduled = await service.exportTo(profileId, source, { format: 'csv', keys: ['country'] }, async () => path.join(folder, 'scheduled.csv'))
    expect(scheduled.job.state).toBe('failed')
    expect(ended).toEqual([])
    const { job } = await exportTo({ format: 'csv', keys: ['country'] }, service)
    expect(job.state).toBe('failed')
    expect(ended).toEqual([{ title: 'Export failed', failed: true }])
  })

  it('cancel mid-stream leaves no file, removes the temporary one and closes the download', async () => {
    proxy.mode = { kind: 'stall' }
    const started = await services.exports.start(profileId, source, { format: 'csv', keys: ['page_url'] })
    if (started === null) throw new Error('cancelled dialog')
    // The stalled proxy sent its first chunk: the temporary file exists beside the target.
    while ((await leftovers(folder)).length === 0) await new Promise((resolve) => setImmediate(resolve))
    const closedBefore = proxy.closedStalls
    expect(await services.exports.cancel(started.jobId)).toEqual({ cancelled: true })
    const job = await services.exports.whenEnded(started.jobId)
    expect(job).toMatchObject({ state: 'cancelled', error: null })
    await expect(fs.access(path.join(folder, started.fileName))).rejects.toThrow()
    expect(await leftovers(folder)).toEqual([])
    while (proxy.closedStalls === closedBefore) await new Promise((resolve) => setImmediate(resolve))
  })

  it('runs two jobs at a time; the third waits in the queue until one ends', async () => {
    proxy.mode = { kind: 'stall' }
    const names = ['one', 'two', 'three']
    const answers = names.map((name) => path.join(folder, `${name}.csv`))
    const dialog: FileDialogs = { chooseSavePath: async () => answers.shift() ?? null, chooseOpenPaths: async () => [] }
    const events = createEventHub()
    const service = createExportService({
      reportingOf: async (id) => (await services.workspace.connection(id)).reporting,
      infoOf: (id, project, report, signal) => services.reports.info(id, project, report, { signal }),
      presetOf: async () => definition,
      dialog,
      jobHistory: createExportJobHistory(path.join(await temporaryFolder(), 'history.json'), createNotices()),
      events,
      notices: createNotices(),
    })
    const streaming = new Set<string>()
    const twoStreaming = new Promise<void>((resolve) => {
      events.subscribe((event, payload) => {
        const progress = payload as EventPayload<'onExportProgress'>
        if (event === 'onExportProgress' && progress.state === 'running') streaming.add(progress.jobId)
        if (streaming.size === 2) resolve()
      })
    })
    const ids: string[] = []
    for (let index = 0; index < 3; index++) {
      const started = await service.start(profileId, source, { format: 'csv', keys: ['page_url'] })
      ids.push(started?.jobId ?? '')
    }
    await twoStreaming
    const states = async (): Promise<string[]> => {
      const jobs = await service.list()
      return ids.map((id) => jobs.find((job) => job.id === id)?.state ?? 'missing')
    }
    expect(await states()).toEqual(['running', 'running', 'queued'])
    const thirdStarts = new Promise<void>((resolve) => {
      events.subscribe((event, payload) => {
        if (
          event === 'onExportProgress' &&
          (payload as EventPayload<'onExportProgress'>).jobId === ids[2] &&
          (payload as EventPayload<'onExportProgress'>).state === 'running'
        )
          resolve()
      })
    })
    await service.cancel(ids[0] ?? '')
    await thirdStarts
    expect(await states()).toEqual(['cancelled', 'running', 'running'])
    await service.close()
    expect(await states()).toEqual(['cancelled', 'interrupted', 'interrupted'])
    expect(await leftovers(folder)).toEqual([])
  })

  it('a job running when the app quit is marked interrupted at the next start, and its temporary file removed', async () => {
    proxy.mode = { kind: 'stall' }
    const started = await services.exports.start(profileId, source, { format: 'tsv', keys: ['page_url'] })
    if (started === null) throw new Error('cancelled dialog')
    while ((await leftovers(folder)).length === 0) await new Promise((resolve) => setImmediate(resolve))
    // The app "crashes": nothing is closed; a new run starts over the same data folder.
    const restarted = await createTestServices({ keychain, userDataDir: services.userDataDir, fileDialogs: acceptingDialog(() => folder) })
    const job = (await restarted.exports.list()).find((candidate) => candidate.id === started.jobId)
    expect(job).toMatchObject({ state: 'interrupted', fileName: started.fileName, error: expect.stringContaining('quit while this export was running') })
    expect(await leftovers(folder)).toEqual([])
    await restarted.close()
    await services.exports.cancel(started.jobId)
  })

  it('through the bridge: start, list, preview, estimate; no path ever crosses', async () => {
    const handlers = createHandlers(services, { nativeSaveDialog: false })
    const started = await dispatch(handlers, 'exports:start', { profileId, source, options: { format: 'csv', keys: ['country'] } })
    if (!started.ok) throw new Error(started.error.message)
    const { jobId } = started.value as { jobId: string }
    await services.exports.whenEnded(jobId)
    const outcomes = [
      started,
      await dispatch(handlers, 'exports:list', {}),
      await dispatch(handlers, 'exports:preview', { jobId }),
      await dispatch(handlers, 'exports:open', { jobId }),
    ]
    for (const outcome of outcomes) expect(JSON.stringify(outcome)).not.toContain(folder)
    const estimate = await dispatch(handlers, 'exports:estimate', { profileId, source, options: { format: 'csv', keys: ['country'] } })
    const preview = outcomes[2]
    if (!estimate.ok || !preview?.ok) throw new Error('estimate or preview failed')
    // One key below the ranking limit: the estimate is the exact row count of the file.
    expect(estimate.value).toMatchObject({
      cap: 1_000_000,
      othersRow: true,
      rows: { count: (preview.value as { rows: unknown[] }).rows.length, atLeast: false },
    })
    const several = await dispatch(handlers, 'exports:estimate', { profileId, source, options: { format: 'xlsx', keys: ['country', 'device_type'] } })
    expect(several).toMatchObject({ ok: true, value: { cap: 1_048_570, othersRow: false, rows: { atLeast: true }, keys: ['country', 'device_type'] } })
    // No keys chosen: the answer names the ones main will split by, `auto` resolved from the 7 days.
    const auto = { kind: 'definition' as const, definition: { ...definition, granularity: 'auto', breakdown: [] } }
    const resolved = await dispatch(handlers, 'exports:estimate', { profileId, source: auto, options: { format: 'csv' } })
    expect(resolved).toMatchObject({ ok: true, value: { keys: ['granularity_day'], rows: { count: 7, atLeast: false } } })
  })

  it('refuses what cannot be exported before any dialog opens', async () => {
    let asked = 0
    const dialog: FileDialogs = { chooseSavePath: async () => ((asked += 1), null), chooseOpenPaths: async () => [] }
    const withDialog = await createTestServices({ keychain, userDataDir: services.userDataDir, fileDialogs: dialog })
    await expect(withDialog.exports.start(profileId, source, { format: 'csv', dataFields: ['no_such_metric'] })).rejects.toMatchObject({
      code: 'validation',
      details: { field: 'dataFields' },
    })
    await expect(
      withDialog.exports.start(profileId, source, { format: 'csv', keys: ['country'], sort: [{ field: 'device_type', direction: 'ASC', byName: false }] }),
    ).rejects.toMatchObject({ code: 'validation', details: { field: 'sort' } })
    expect(asked).toBe(0)
    // A cancelled dialog starts nothing.
    expect(await withDialog.exports.start(profileId, source, { format: 'csv' })).toBeNull()
    expect(asked).toBe(1)
    await withDialog.close()
  })
})
