import path from 'node:path'
import { performance } from 'node:perf_hooks'
import type {
  ExportEstimate,
  ExportFormat,
  ExportJob,
  ExportOptions,
  ExportPreview,
  ExportSource,
  ReportDefinition,
  ReportInfoView,
  ResolvedRange,
} from '@contract'
import { AppError } from '../errors'
import type { EventHub } from '../events'
import type { SaveFileDialog } from '../files/dialogs'
import { chooseSaveTarget, safeBaseName } from '../files/save-target'
import type { Notices } from '../notices'
import type { ReportingClient } from '../reporting/client'
import type { ClockContext } from '../reports/scope'
import { estimateExport } from './estimate'
import { createFileActions } from './file-actions'
import { exportFs, type ExportFs } from './fs'
import { jobView, type ExportJobHistory, type ExportRecord } from './job-history'
import { createLiveJob, queuedRecord, type LiveJob, type StopReason } from './job'
import { createLimiter, LimiterStopped } from './limiter'
import { endNotification } from './notification'
import { createJobRecords } from './records'
import { planExport, type ExportPlan } from './export-plan'
import type { ExportShell, ExportSignals } from './signals'

/**
 * Export jobs, owned by main: queued (a few at a time, limiter.ts), each streamed from the
 * platform into a temporary file beside its target that is flushed and renamed only when the
 * whole file came (job.ts, save-export.ts), cancellable at any moment, with progress as
 * `onExportProgress` events and every job kept in a history on disk from the moment it is
 * queued (records.ts). This file wires them together.
 */
export interface ExportService {
  /** Validates, asks where to save (main's dialog) and queues; null when the dialog is cancelled. */
  start(profileId: string, source: ExportSource, options: ExportOptions): Promise<{ jobId: string; fileName: string } | null>
  /**
   * A scheduled export: no dialog, `targetOf` names the file from what the run resolved (the
   * schedule's folder and file-name pattern); resolves when the job has ended, with the error code of a failure.
   */
  exportTo(
    profileId: string,
    source: ExportSource,
    options: ExportOptions,
    targetOf: (planned: { range: ResolvedRange; preset: string | null; format: ExportFormat }) => Promise<string>,
  ): Promise<{ job: ExportJob; failureCode: string | null }>
  estimate(profileId: string, source: ExportSource, options: ExportOptions, signal: AbortSignal): Promise<ExportEstimate>
  /** Stops a job and waits until it has let go of its files; `cancelled` false when it had already ended. */
  cancel(jobId: string): Promise<{ cancelled: boolean }>
  /** This run's jobs and the history, newest first. */
  list(): Promise<ExportJob[]>
  open(jobId: string): Promise<void>
  reveal(jobId: string): Promise<void>
  preview(jobId: string): Promise<ExportPreview>
  /** The file of a finished job (main's own use: the analysis opens it by the job's id); a sentence when it is not there. */
  finishedFile(jobId: string): Promise<string>
  /** The job once it has ended. */
  whenEnded(jobId: string): Promise<ExportJob>
  /** Reads the history; jobs a previous run left queued or running are marked interrupted. */
  recover(): Promise<void>
  /** The app quits: every job stops and is kept as interrupted. */
  close(): Promise<void>
  /** A board page the user saved (boards:exportFile): listed as a finished file, told to the page as a finished export is. */
  recordFile(page: ListedBoardPage): Promise<void>
}

/** A board's pdf or png page, written where `path` says. */
export interface ListedBoardPage {
  profileId: string | null
  board: string
  format: 'pdf' | 'png'
  path: string
}

export interface ExportServiceOptions {
  reportingOf(profileId: string): Promise<ReportingClient>
  infoOf(profileId: string, project: string, report: string, signal: AbortSignal): Promise<ReportInfoView>
  /** A saved preset's definition by name (`not_found` when there is none). */
  presetOf(name: string): Promise<ReportDefinition>
  dialog: SaveFileDialog
  jobHistory: ExportJobHistory
  events: Pick<EventHub, 'emit'>
  notices: Pick<Notices, 'add'>
  signals?: ExportSignals | null
  shell?: ExportShell | null
  /** Calls a test replaces (fill the disk with ENOSPC, fail a rename); the real file system for the rest. */
  fs?: Partial<ExportFs>
  /** Jobs streaming at once; the rest wait in the queue. */
  concurrency?: number
  /** At most one progress event per job this often. */
  progressIntervalMs?: number
  now?: () => Date
  osOffsetMinutes?: () => number
  monotonic?: () => number
}

export const EXPORT_CONCURRENCY = 2

const FILTERS = {
  xlsx: { name: 'Excel workbook', extensions: ['xlsx'] },
  csv: { name: 'CSV', extensions: ['csv'] },
  tsv: { name: 'Tab-separated values', extensions: ['tsv'] },
} as const satisfies Record<string, { name: string; extensions: [string] }>

const isActive = (record: ExportRecord): boolean => record.state === 'queued' || record.state === 'running'

/** A job the queue let go of before it ran ends through `endUnstarted`; any other failure stays loud. */
function ignoreWithdrawn(error: unknown): void {
  if (!(error instanceof LimiterStopped)) throw error
}

export function createExportService(options: ExportServiceOptions): ExportService {
  const now = options.now ?? (() => new Date())
  const monotonic = options.monotonic ?? (() => performance.now())
  const clock: ClockContext = { now, osOffsetMinutes: options.osOffsetMinutes ?? (() => -now().getTimezoneOffset()) }
  const fs = exportFs(options.fs)
  const records = createJobRecords({ jobHistory: options.jobHistory, notices: options.notices, fs })
  const live = new Map<string, LiveJob>()
  const queue = createLimiter(options.concurrency ?? EXPORT_CONCURRENCY)
  const files = createFileActions({
    recordOf: async (jobId) => {
      await records.ready()
      return records.get(jobId)
    },
    shell: options.shell ?? null,
    fs,
  })

  function signalProgress(): void {
    const active = [...live.values()].some((job) => isActive(job.record))
    options.signals?.progress(active ? 'indeterminate' : null)
  }

  function stopJob(job: LiveJob, why: StopReason): Promise<ExportRecord> {
    const ended = job.stop(why)
    if (queue.withdraw(job.run)) job.endUnstarted(why)
    return ended
  }

  async function plan(
    profileId: string,
    source: ExportSource,
    exportOptions: ExportOptions,
    signal: AbortSignal,
  ): Promise<ExportPlan & { preset: string | null; definition: ReportDefinition }> {
    const definition = source.kind === 'definition' ? source.definition : await options.presetOf(source.name)
    const preset = source.kind === 'definition' ? null : source.name
    const info = await options.infoOf(profileId, definition.project, definition.report, signal)
    return { ...planExport(definition, info, exportOptions, clock), preset, definition }
  }

  type Planned = Awaited<ReturnType<typeof plan>>

  /** Queues a job once `targetOf` has said where its file goes (null: nowhere, the dialog was cancelled). */
  async function queueJob(
    profileId: string,
    source: ExportSource,
    exportOptions: ExportOptions,
    targetOf: (planned: Planned) => Promise<string | null>,
    /** A scheduled job's failure is told by its schedule (one notification, with the schedule's name), not here too. */
    quietFailure = false,
  ): Promise<LiveJob | null> {
    await records.ready()
    const planned = await plan(profileId, source, exportOptions, new AbortController().signal)
    const { definition } = planned
    const target = await targetOf(planned)
    if (target === null) return null
    if ([...live.values()].some((job) => job.record.path === target)) {
      throw new AppError('conflict', `${path.basename(target)} is already being exported. Wait for that export, or choose another name.`)
    }
    const order = { profileId, preset: planned.preset, project: definition.project, report: definition.report, target }
    const job = createLiveJob(
      { ...order, format: planned.format, request: planned.request, includeTotal: planned.includeTotal, columns: planned.columns },
      {
        reportingOf: options.reportingOf,
        fs,
        events: options.events,
        now,
        monotonic,
        progressIntervalMs: options.progressIntervalMs ?? 250,
        changed: records.set,
        persist: records.persist,
        async finished(record) {
          live.delete(record.id)
          await records.persist(record)
          signalProgress()
          options.events.emit('onExportDone', jobView(record))
          const notification = endNotification(record)
          if (notification !== null && !(quietFailure && notification.failed)) options.signals?.ended(notification)
        },
      },
    )
    records.set(job.record)
    live.set(job.record.id, job)
    await records.persist(job.record)
    job.announceQueued()
    signalProgress()
    queue.queue(job.run).catch(ignoreWithdrawn)
    return job
  }

  return {
    async start(profileId, source, exportOptions) {
      const job = await queueJob(profileId, source, exportOptions, (planned) => {
        const { definition, range } = planned
        const defaultName = planned.preset ?? `${definition.project}-${definition.report}-${range.start}-${range.end}`
        return chooseSaveTarget(options.dialog, safeBaseName(defaultName), FILTERS[planned.format], fs)
      })
      return job === null ? null : { jobId: job.record.id, fileName: job.record.fileName }
    },

    async exportTo(profileId, source, exportOptions, targetOf) {
      const job = await queueJob(profileId, source, exportOptions, (planned) => targetOf(planned), true)
      if (job === null) throw new AppError('internal', 'The scheduled export was given no file to write.')
      const ended = await job.ended
      return { job: jobView(ended), failureCode: ended.failureCode ?? null }
    },

    async estimate(profileId, source, exportOptions, signal) {
      const planned = await plan(profileId, source, exportOptions, signal)
      return estimateExport(planned, () => options.reportingOf(profileId), signal)
    },

    async cancel(jobId) {
      await records.ready()
      const job = live.get(jobId)
      if (job === undefined) return { cancelled: false }
      const ended = await stopJob(job, 'cancel')
      return { cancelled: ended.state === 'cancelled' }
    },

    async list() {
      await records.ready()
      return records.list().map(jobView)
    },

    open: files.open,
    reveal: files.reveal,
    preview: files.preview,
    finishedFile: files.finishedFile,

    async whenEnded(jobId) {
      await records.ready()
      const job = live.get(jobId)
      if (job !== undefined) return jobView(await job.ended)
      const record = records.get(jobId)
      if (record === undefined) throw new AppError('not_found', 'That export is not in the list any more.')
      return jobView(record)
    },

    recover: records.ready,

    async close() {
      await Promise.all([...live.values()].map((job) => stopJob(job, 'quit')))
      await queue.idle()
    },

    async recordFile(page) {
      await records.ready()
      const { size } = await fs.stat(page.path)
      const at = now().toISOString()
      const record: ExportRecord = {
        ...queuedRecord({ profileId: page.profileId ?? '', preset: null, project: '', report: '', format: page.format, target: page.path }, now()),
        board: page.board,
        state: 'done',
        startedAt: at,
        endedAt: at,
        bytes: size,
      }
      records.set(record)
      await records.persist(record)
      options.events.emit('onExportDone', jobView(record))
    },
  }
}
