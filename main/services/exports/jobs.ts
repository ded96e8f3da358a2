import { randomUUID } from 'node:crypto'
import { promises as nodeFs } from 'node:fs'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import {
  EXPORT_CAPS,
  PREVIEW_ROWS,
  type ExportEstimate,
  type ExportJob,
  type ExportOptions,
  type ExportPreview,
  type ExportSource,
  type ReportDefinition,
  type ReportInfoView,
} from '@contract'
import { AppError } from '../errors'
import type { EventHub } from '../events'
import type { SaveFileDialog } from '../files/dialogs'
import { chooseSaveTarget, describeFile, safeBaseName } from '../files/save-target'
import type { Notices } from '../notices'
import type { ReportingClient } from '../reporting/client'
import { saveStreamAtomically, type SaveFs } from '../reporting/save-export'
import type { ReportRequest } from '../reporting/schemas'
import { scopeFields, TOTAL_LINE, type ClockContext } from '../reports/request'
import { exportFailure, formatBytes } from './failures'
import { HISTORY_LIMIT, jobView, type ExportHistory, type ExportRecord } from './history'
import { readExportHead } from './preview'
import { capsOf, planExport, type ExportPlan } from './request'
import { createRowCounter, endsWithOthers, observed, type RowCounter } from './rows'
import type { ExportShell, ExportSignals } from './signals'

/**
 * Export jobs, owned by main: queued (a few at a time), each streamed from the platform into a
 * temporary file beside its target that is flushed and renamed only when the whole file came
 * (save-export.ts), cancellable at any moment, with progress as `onExportProgress` events and
 * every job kept in a history on disk from the moment it is queued.
 */
export interface ExportService {
  /** Validates, asks where to save (main's dialog) and queues; null when the dialog is cancelled. */
  start(profileId: string, source: ExportSource, options: ExportOptions): Promise<{ jobId: string; fileName: string } | null>
  estimate(profileId: string, source: ExportSource, options: ExportOptions, signal: AbortSignal): Promise<ExportEstimate>
  /** Stops a job and waits until it has let go of its files; `cancelled` false when it had already ended. */
  cancel(jobId: string): Promise<{ cancelled: boolean }>
  /** This run's jobs and the history, newest first. */
  list(): Promise<ExportJob[]>
  open(jobId: string): Promise<void>
  reveal(jobId: string): Promise<void>
  preview(jobId: string): Promise<ExportPreview>
  /** The job once it has ended. */
  whenEnded(jobId: string): Promise<ExportJob>
  /** Reads the history; jobs a previous run left queued or running are marked interrupted. */
  recover(): Promise<void>
  /** The app quits: every job stops and is kept as interrupted. */
  close(): Promise<void>
}

export interface ExportServiceOptions {
  reportingOf(profileId: string): Promise<ReportingClient>
  infoOf(profileId: string, project: string, report: string, signal: AbortSignal): Promise<ReportInfoView>
  /** A saved preset's definition by name (`not_found` when there is none). */
  presetOf(name: string): Promise<ReportDefinition>
  dialog: SaveFileDialog
  history: ExportHistory
  events: Pick<EventHub, 'emit'>
  notices: Pick<Notices, 'add'>
  signals?: ExportSignals | null
  shell?: ExportShell | null
  /** Passed in so a test can fill the disk (ENOSPC) or fail a rename. */
  fs?: SaveFs
  /** Jobs streaming at once; the rest wait in the queue. */
  concurrency?: number
  /** At most one progress event per job this often. */
  progressIntervalMs?: number
  now?: () => Date
  osOffsetMinutes?: () => number
  monotonic?: () => number
}

export const EXPORT_CONCURRENCY = 2
/** The estimate's ranking call reads at most this many values of the first key (the API's `limit`). */
const ESTIMATE_LIMIT = 10_000

const FILTERS = {
  xlsx: { name: 'Excel workbook', extensions: ['xlsx'] },
  csv: { name: 'CSV', extensions: ['csv'] },
  tsv: { name: 'Tab-separated values', extensions: ['tsv'] },
} as const satisfies Record<string, { name: string; extensions: [string] }>

const QUIT_SENTENCE = 'AdOps Desk quit while this export was running; nothing was saved. Export it again.'
const CAPPED_SENTENCE = `The platform capped this export at ${EXPORT_CAPS.textRows.toLocaleString('en-US')} rows: its last row, Others, sums the rows past them. Narrow the dates or add filters to get every row.`

interface LiveJob {
  record: ExportRecord
  request: ReportRequest
  includeTotal: boolean
  controller: AbortController
  /** Why the job is being stopped: the user cancelled it, or the app quits. */
  stop: 'cancel' | 'quit' | null
  ended: Promise<ExportRecord>
  end: (record: ExportRecord) => void
  startedAt: number
  lastEvent: number
}

const isActive = (record: ExportRecord): boolean => record.state === 'queued' || record.state === 'running'

export function createExportService(options: ExportServiceOptions): ExportService {
  const now = options.now ?? (() => new Date())
  const monotonic = options.monotonic ?? (() => performance.now())
  const clock: ClockContext = { now, osOffsetMinutes: options.osOffsetMinutes ?? (() => -now().getTimezoneOffset()) }
  const concurrency = options.concurrency ?? EXPORT_CONCURRENCY
  const interval = options.progressIntervalMs ?? 250
  const fs = options.fs ?? nodeFs

  const records = new Map<string, ExportRecord>()
  const live = new Map<string, LiveJob>()
  const queue: LiveJob[] = []
  const running = new Set<Promise<void>>()
  let runningCount = 0
  let loaded: Promise<void> | null = null

  /* ---------- history ---------- */

  function ready(): Promise<void> {
    loaded ??= (async () => {
      const { jobs } = await options.history.read()
      const interrupted: ExportRecord[] = []
      for (const record of jobs) {
        if (isActive(record)) {
          const marked: ExportRecord = { ...record, state: 'interrupted', endedAt: record.endedAt ?? record.startedAt, error: QUIT_SENTENCE }
          interrupted.push(marked)
          records.set(record.id, marked)
        } else records.set(record.id, record)
      }
      for (const record of interrupted) {
        await removeLeftovers(record.path)
        await persist(record)
      }
    })()
    return loaded
  }

  /** A temporary file a quit left beside its target (save-export.ts names them `.<name>.<hex>.tmp`). */
  async function removeLeftovers(target: string): Promise<void> {
    const folder = path.dirname(target)
    const prefix = `.${path.basename(target)}.`
    const names = await nodeFs.readdir(folder).catch(() => [] as string[])
    for (const name of names) {
      if (name.startsWith(prefix) && /^[0-9a-f]{12}\.tmp$/.test(name.slice(prefix.length)))
        await fs.rm(path.join(folder, name), { force: true }).catch(() => undefined)
    }
  }

  async function persist(record: ExportRecord): Promise<void> {
    try {
      await options.history.update(({ jobs }) => {
        const others = jobs.filter((job) => job.id !== record.id)
        const next = [record, ...others].sort((left, right) => (left.createdAt < right.createdAt ? 1 : left.createdAt > right.createdAt ? -1 : 0))
        return { jobs: next.slice(0, HISTORY_LIMIT) }
      })
    } catch (error) {
      // The job itself is not affected; the user should know its line may be missing after a restart.
      options.notices.add({ level: 'warning', message: error instanceof AppError ? error.message : 'The exports history could not be saved.' })
    }
  }

  function update(job: LiveJob, change: Partial<ExportRecord>): ExportRecord {
    job.record = { ...job.record, ...change }
    records.set(job.record.id, job.record)
    return job.record
  }

  /* ---------- events ---------- */

  function progress(job: LiveJob, bytes: number, rows: number | null): void {
    const elapsedMs = job.record.state === 'running' ? Math.max(0, monotonic() - job.startedAt) : 0
    job.lastEvent = monotonic()
    options.events.emit('onExportProgress', {
      jobId: job.record.id,
      state: job.record.state,
      bytes,
      rows,
      bytesPerSecond: elapsedMs > 0 ? Math.round((bytes * 1000) / elapsedMs) : 0,
      elapsedMs: Math.round(elapsedMs),
    })
  }

  function signalProgress(): void {
    const active = [...live.values()].some((job) => isActive(job.record))
    options.signals?.progress(active ? 'indeterminate' : null)
  }

  function announceEnd(record: ExportRecord): void {
    options.events.emit('onExportDone', jobView(record))
    if (record.state === 'done') {
      const size = record.rows === null ? formatBytes(record.bytes) : `${record.rows.toLocaleString('en-US')} rows, ${formatBytes(record.bytes)}`
      options.signals?.ended({
        title: 'Export finished',
        body: `${record.fileName} (${size})${record.capped === true ? ', capped by the platform' : ''}`,
        failed: false,
      })
    } else if (record.state === 'failed') {
      options.signals?.ended({ title: 'Export failed', body: record.error ?? `${record.fileName} was not saved.`, failed: true })
    }
  }

  /* ---------- the queue ---------- */

  function pump(): void {
    while (runningCount < concurrency && queue.length > 0) {
      const job = queue.shift() as LiveJob
      runningCount += 1
      const run = execute(job).finally(() => {
        runningCount -= 1
        running.delete(run)
        pump()
      })
      running.add(run)
    }
  }

  async function finish(job: LiveJob, change: Partial<ExportRecord>): Promise<void> {
    const durationMs = job.record.startedAt === null ? null : Math.round(monotonic() - job.startedAt)
    const record = update(job, { endedAt: now().toISOString(), durationMs, ...change })
    live.delete(record.id)
    await persist(record)
    signalProgress()
    announceEnd(record)
    job.end(record)
  }

  async function execute(job: LiveJob): Promise<void> {
    if (job.stop !== null) return
    const signal = job.controller.signal
    job.startedAt = monotonic()
    update(job, { state: 'running', startedAt: now().toISOString() })
    await persist(job.record)
    progress(job, 0, job.record.format === 'xlsx' ? null : 0)

    let bytes = 0
    // Set once the platform has answered with a file: a network error after it is a download cut
    // mid-way, even if the bytes that did arrive were lost with the broken stream.
    let answered = false
    const counter: RowCounter | null = job.record.format === 'xlsx' ? null : createRowCounter(job.record.format)
    const rowsSoFar = (): number | null => (counter === null ? null : Math.max(0, counter.lines() - 1))
    try {
      const reporting = await options.reportingOf(job.record.profileId)
      const download = await reporting.export(job.request, { signal })
      answered = true
      const source = observed(download.body, (chunk) => {
        bytes += chunk.length
        counter?.push(chunk)
        if (monotonic() - job.lastEvent >= interval) {
          update(job, { bytes, rows: rowsSoFar() })
          progress(job, bytes, rowsSoFar())
        }
      })
      await saveStreamAtomically(source, job.record.path, { signal, fs })
      const capped = counter === null ? null : endsWithOthers(counter.lastFirstCells(2), job.includeTotal)
      update(job, { bytes, rows: rowsSoFar() })
      progress(job, bytes, rowsSoFar())
      await finish(job, { state: 'done', bytes, rows: rowsSoFar(), capped, notes: capped === true ? [CAPPED_SENTENCE] : [], error: null })
    } catch (error) {
      if (job.stop === 'cancel') await finish(job, { state: 'cancelled', bytes, rows: rowsSoFar(), notes: ['Cancelled; nothing was saved.'], error: null })
      else if (job.stop === 'quit') await finish(job, { state: 'interrupted', bytes, rows: rowsSoFar(), error: QUIT_SENTENCE })
      else await finish(job, { state: 'failed', bytes, rows: rowsSoFar(), error: exportFailure(error, job.record.path, bytes, answered) })
    }
  }

  function stopJob(job: LiveJob, why: 'cancel' | 'quit'): Promise<ExportRecord> {
    job.stop ??= why
    job.controller.abort()
    const waiting = queue.indexOf(job)
    if (waiting >= 0) {
      // Never started: nothing to clean up on disk.
      queue.splice(waiting, 1)
      void finish(
        job,
        why === 'cancel' ? { state: 'cancelled', notes: ['Cancelled before it started.'], error: null } : { state: 'interrupted', error: QUIT_SENTENCE },
      )
    }
    return job.ended
  }

  /* ---------- lookups ---------- */

  async function resolveDefinition(source: ExportSource): Promise<{ definition: ReportDefinition; preset: string | null }> {
    if (source.kind === 'definition') return { definition: source.definition, preset: null }
    return { definition: await options.presetOf(source.name), preset: source.name }
  }

  async function plan(
    profileId: string,
    source: ExportSource,
    exportOptions: ExportOptions,
    signal: AbortSignal,
  ): Promise<ExportPlan & { preset: string | null; definition: ReportDefinition }> {
    const { definition, preset } = await resolveDefinition(source)
    const info = await options.infoOf(profileId, definition.project, definition.report, signal)
    return { ...planExport(definition, info, exportOptions, clock), preset, definition }
  }

  async function finished(jobId: string): Promise<ExportRecord> {
    await ready()
    const record = records.get(jobId)
    if (record === undefined) throw new AppError('not_found', 'That export is not in the list any more.')
    if (record.state !== 'done')
      throw new AppError(
        'conflict',
        `${record.fileName} was not saved (the export ${record.state === 'running' || record.state === 'queued' ? 'has not finished' : `is ${record.state}`}).`,
      )
    const stat = await nodeFs.stat(record.path).catch(() => null)
    if (stat === null) throw new AppError('not_found', `${record.fileName} is no longer in ${record.folderName}: it was moved or deleted.`)
    return record
  }

  return {
    async start(profileId, source, exportOptions) {
      await ready()
      const planned = await plan(profileId, source, exportOptions, new AbortController().signal)
      const range = planned.range
      const defaultName = planned.preset ?? `${planned.definition.project}-${planned.definition.report}-${range.start}-${range.end}`
      const target = await chooseSaveTarget(options.dialog, safeBaseName(defaultName), FILTERS[planned.format])
      if (target === null) return null
      if ([...live.values()].some((job) => job.record.path === target)) {
        throw new AppError('conflict', `${path.basename(target)} is already being exported. Wait for that export, or choose another name.`)
      }
      let end: (record: ExportRecord) => void = () => undefined
      const ended = new Promise<ExportRecord>((resolve) => (end = resolve))
      const job: LiveJob = {
        record: {
          id: randomUUID(),
          profileId,
          preset: planned.preset,
          project: planned.definition.project,
          report: planned.definition.report,
          format: planned.format,
          ...describeFile(target),
          path: target,
          state: 'queued',
          createdAt: now().toISOString(),
          startedAt: null,
          endedAt: null,
          bytes: 0,
          rows: null,
          durationMs: null,
          capped: null,
          notes: [],
          error: null,
        },
        request: planned.request,
        includeTotal: planned.includeTotal,
        controller: new AbortController(),
        stop: null,
        ended,
        end,
        startedAt: 0,
        lastEvent: 0,
      }
      records.set(job.record.id, job.record)
      live.set(job.record.id, job)
      await persist(job.record)
      queue.push(job)
      progress(job, 0, null)
      signalProgress()
      pump()
      return { jobId: job.record.id, fileName: job.record.fileName }
    },

    async estimate(profileId, source, exportOptions, signal) {
      const planned = await plan(profileId, source, exportOptions, signal)
      const caps = capsOf(planned.format)
      const first = planned.keys[0] as string
      const metric = planned.dataFields[0] as string
      let rows: ExportEstimate['rows'] = null
      let note: string | null = null
      try {
        const reporting = await options.reportingOf(profileId)
        // The values of the first key, as a ranking call: exact for one key below the limit, a lower bound otherwise.
        const result = await reporting.timeSeries(
          {
            ...scopeFields(planned.scope),
            granularity: first,
            split_by: [],
            chart_lines: [TOTAL_LINE],
            data_field: metric,
            ...(planned.scope.dataFilters.length > 0 ? { data_filters: planned.scope.dataFilters } : {}),
            ...(planned.scope.dataFilters.length > 0 && planned.scope.dataFilterTemplate !== null
              ? { data_filter_template: planned.scope.dataFilterTemplate }
              : {}),
            order_by: [{ name: metric, direction: 'DESC', mapping: 0 }],
            limit: ESTIMATE_LIMIT,
          },
          { signal },
        )
        const count = result.rows.length
        const atLeast = count >= ESTIMATE_LIMIT || planned.keys.length > 1
        rows = { count, atLeast }
        const counted = count.toLocaleString('en-US')
        if (planned.keys.length > 1)
          note = `At least ${counted} rows: ${first} alone has ${count >= ESTIMATE_LIMIT ? 'that many values or more' : 'that many values'}, and its combinations with the other keys can be many more.`
        else if (atLeast) note = `At least ${counted} rows: ${first} has that many values or more.`
        else note = `${counted} rows (one per value of ${first}).`
      } catch (error) {
        if (signal.aborted) throw error
        note = `No estimate: ${error instanceof AppError ? error.message : 'the platform could not be asked.'}`
      }
      return { cap: caps.cap, othersRow: caps.othersRow, rules: caps.rules, rows, note, keys: [...planned.keys] }
    },

    async cancel(jobId) {
      await ready()
      const job = live.get(jobId)
      if (job === undefined) return { cancelled: false }
      const ended = await stopJob(job, 'cancel')
      return { cancelled: ended.state === 'cancelled' }
    },

    async list() {
      await ready()
      return [...records.values()].sort((left, right) => (left.createdAt < right.createdAt ? 1 : left.createdAt > right.createdAt ? -1 : 0)).map(jobView)
    },

    async open(jobId) {
      const record = await finished(jobId)
      if (!options.shell)
        throw new AppError('bad_input', `This window cannot open files: ${record.fileName} is in the ${record.folderName} folder of AdOps Desk's data.`)
      try {
        await options.shell.openFile(record.path)
      } catch (error) {
        throw new AppError('internal', `${record.fileName} could not be opened: ${error instanceof Error ? error.message : String(error)}`)
      }
    },

    async reveal(jobId) {
      const record = await finished(jobId)
      if (!options.shell)
        throw new AppError('bad_input', `This window cannot show folders: ${record.fileName} is in the ${record.folderName} folder of AdOps Desk's data.`)
      options.shell.showInFolder(record.path)
    },

    async preview(jobId) {
      const record = await finished(jobId)
      if (record.format === 'xlsx') throw new AppError('bad_input', `${record.fileName} is a workbook; open it instead. Only csv and tsv files are previewed.`)
      try {
        return { fileName: record.fileName, ...(await readExportHead(record.path, record.format, PREVIEW_ROWS)) }
      } catch (error) {
        throw new AppError(
          'storage',
          `${record.fileName} could not be read${typeof (error as NodeJS.ErrnoException).code === 'string' ? ` (${(error as NodeJS.ErrnoException).code})` : ''}.`,
        )
      }
    },

    async whenEnded(jobId) {
      await ready()
      const job = live.get(jobId)
      if (job !== undefined) return jobView(await job.ended)
      const record = records.get(jobId)
      if (record === undefined) throw new AppError('not_found', 'That export is not in the list any more.')
      return jobView(record)
    },

    recover: ready,

    async close() {
      await Promise.all([...live.values()].map((job) => stopJob(job, 'quit')))
      await Promise.allSettled([...running])
    },
  }
}
