import { randomUUID } from 'node:crypto'
import { EXPORT_CAPS, type ExportFormat } from '@contract'
import { lazy } from '../../../common/lazy'
import type { EventHub } from '../events'
import { describeFile } from '../files/save-target'
import type { ReportingClient } from '../reporting/client'
import { isAppError } from '../errors'
import { saveStreamAtomically } from '../reporting/save-export'
import type { ReportRequest } from '../reporting/schemas'
import { exportFailure } from './failures'
import { readableFile } from './readable-file'
import type { ExportColumns } from './export-columns'
import type { ExportFs } from './fs'
import type { ExportRecord } from './job-history'
import { createRowCounter, endsWithOthers, type RowCounter } from './rows'

/**
 * One export job from queued to its end: queued -> running -> done | failed | cancelled |
 * interrupted, or queued -> cancelled | interrupted when stopped before it ran. It owns its
 * abort (a stop aborts the download and the save) and its progress throttle (at most one
 * `onExportProgress` event per interval while bytes arrive).
 */
export interface LiveJob {
  /** The record as it is now (a new object on every change). */
  readonly record: ExportRecord
  /** Resolves once the job has ended and let go of its files. */
  readonly ended: Promise<ExportRecord>
  /** Streams the file; the queue calls it when a slot is free. Never rejects for the job's own failures. */
  run(): Promise<void>
  /** Asks the job to stop (aborts what runs); `ended` says how it ended. */
  stop(why: StopReason): Promise<ExportRecord>
  /** The queue let go of the job before it ran: it ends now, nothing on disk to clean up. */
  endUnstarted(why: StopReason): void
  /** The first progress event, while the job waits in the queue. */
  announceQueued(): void
}

/** Why a job is being stopped: the user cancelled it, or the app quits. */
export type StopReason = 'cancel' | 'quit'

export const QUIT_SENTENCE = 'AdOps Desk quit while this export was running; nothing was saved. Export it again.'
const cappedSentence = lazy(
  () =>
    `The platform capped this export at ${EXPORT_CAPS.textRows.toLocaleString('en-US')} rows: its last row, Others, sums the rows past them. Narrow the dates or add filters to get every row.`,
)

/** What the job is to export and where (the save dialog's answer). */
export interface JobOrder {
  profileId: string
  preset: string | null
  project: string
  report: string
  format: ExportFormat
  request: ReportRequest
  includeTotal: boolean
  /** The header as the file shows it, and its date columns (readable-file.ts). */
  columns: ExportColumns
  target: string
}

export interface JobContext {
  reportingOf(profileId: string): Promise<ReportingClient>
  fs: Pick<ExportFs, 'open' | 'rename' | 'rm'>
  events: Pick<EventHub, 'emit'>
  now: () => Date
  monotonic: () => number
  /** At most one progress event this often while bytes arrive. */
  progressIntervalMs: number
  /** Every change of the record, so the list shows it at once. */
  changed(record: ExportRecord): void
  persist(record: ExportRecord): Promise<void>
  /** The job reached its end state; `ended` resolves after this has settled. */
  finished(record: ExportRecord): Promise<void>
}

/** A new record of a file to be written: a report file queued, or a board page the jobs list takes as written (jobs.ts). */
export function queuedRecord(
  order: Pick<JobOrder, 'profileId' | 'preset' | 'project' | 'report' | 'target'> & { format: ExportRecord['format'] },
  createdAt: Date,
): ExportRecord {
  return {
    id: randomUUID(),
    profileId: order.profileId,
    preset: order.preset,
    project: order.project,
    report: order.report,
    format: order.format,
    ...describeFile(order.target),
    path: order.target,
    state: 'queued',
    createdAt: createdAt.toISOString(),
    startedAt: null,
    endedAt: null,
    bytes: 0,
    rows: null,
    durationMs: null,
    capped: null,
    notes: [],
    error: null,
  }
}

export function createLiveJob(order: JobOrder, context: JobContext): LiveJob {
  const { monotonic, now } = context
  let record = queuedRecord(order, now())
  const controller = new AbortController()
  let stopReason: StopReason | null = null
  let end: (record: ExportRecord) => void = () => undefined
  const ended = new Promise<ExportRecord>((resolve) => (end = resolve))
  let startedAt = 0
  let lastEvent = 0

  function update(change: Partial<ExportRecord>): ExportRecord {
    record = { ...record, ...change }
    context.changed(record)
    return record
  }

  function progress(bytes: number, rows: number | null): void {
    const elapsedMs = record.state === 'running' ? Math.max(0, monotonic() - startedAt) : 0
    lastEvent = monotonic()
    context.events.emit('onExportProgress', {
      jobId: record.id,
      state: record.state,
      bytes,
      rows,
      bytesPerSecond: elapsedMs > 0 ? Math.round((bytes * 1000) / elapsedMs) : 0,
      elapsedMs: Math.round(elapsedMs),
    })
  }

  async function finish(change: Partial<ExportRecord>): Promise<void> {
    const durationMs = record.startedAt === null ? null : Math.round(monotonic() - startedAt)
    const final = update({ endedAt: now().toISOString(), durationMs, ...change })
    await context.finished(final)
    end(final)
  }

  async function run(): Promise<void> {
    if (stopReason !== null) return
    const signal = controller.signal
    startedAt = monotonic()
    update({ state: 'running', startedAt: now().toISOString() })
    await context.persist(record)
    progress(0, order.format === 'xlsx' ? null : 0)

    let bytes = 0
    // Set once the platform has answered with a file: a network error after it is a download cut
    // mid-way, even if the bytes that did arrive were lost with the broken stream.
    let answered = false
    const counter: RowCounter | null = order.format === 'xlsx' ? null : createRowCounter(order.format)
    const rowsSoFar = (): number | null => (counter === null ? null : Math.max(0, counter.lines() - 1))
    try {
      const reporting = await context.reportingOf(record.profileId)
      const download = await reporting.export(order.request, { signal })
      answered = true
      const onChunk = (chunk: Uint8Array): void => {
        bytes += chunk.length
        counter?.push(chunk)
        if (monotonic() - lastEvent >= context.progressIntervalMs) {
          update({ bytes, rows: rowsSoFar() })
          progress(bytes, rowsSoFar())
        }
      }
      await saveStreamAtomically(await readableFile(download.body, order.format, order.columns), record.path, { signal, fs: context.fs, onChunk })
      const capped = counter === null ? null : endsWithOthers(counter.lastFirstCells(2), order.includeTotal)
      update({ bytes, rows: rowsSoFar() })
      progress(bytes, rowsSoFar())
      await finish({ state: 'done', bytes, rows: rowsSoFar(), capped, notes: capped === true ? [cappedSentence()] : [], error: null })
    } catch (error) {
      if (stopReason === 'cancel') await finish({ state: 'cancelled', bytes, rows: rowsSoFar(), notes: ['Cancelled; nothing was saved.'], error: null })
      else if (stopReason === 'quit') await finish({ state: 'interrupted', bytes, rows: rowsSoFar(), error: QUIT_SENTENCE })
      else
        await finish({
          state: 'failed',
          bytes,
          rows: rowsSoFar(),
          error: exportFailure(error, record.path, bytes, answered),
          failureCode: isAppError(error) ? error.code : null,
        })
    }
  }

  return {
    get record() {
      return record
    },
    ended,
    run,
    stop(why) {
      stopReason ??= why
      controller.abort()
      return ended
    },
    endUnstarted(why) {
      void finish(
        why === 'cancel' ? { state: 'cancelled', notes: ['Cancelled before it started.'], error: null } : { state: 'interrupted', error: QUIT_SENTENCE },
      )
    },
    announceQueued() {
      progress(0, null)
    },
  }
}
