import type { ExportJob, ExportState } from '@contract'
import { formatBytes } from '../../../../common/format'

/** How a job's numbers read in the jobs panel. */

export { formatBytes }

export const formatRate = (bytesPerSecond: number): string => `${formatBytes(Math.max(0, Math.round(bytesPerSecond)))}/s`

/** `4.2 s`, `3 min 05 s`, `1 h 02 min`. */
export function formatElapsed(milliseconds: number): string {
  const seconds = Math.max(0, milliseconds) / 1000
  if (seconds < 60) return `${seconds.toFixed(1)} s`
  const whole = Math.round(seconds)
  const minutes = Math.floor(whole / 60)
  if (minutes < 60) return `${minutes} min ${String(whole % 60).padStart(2, '0')} s`
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`
}

export const STATE_LABELS: Record<ExportState, string> = {
  queued: 'Queued',
  running: 'Running',
  done: 'Saved',
  failed: 'Failed',
  cancelled: 'Cancelled',
  interrupted: 'Interrupted',
}

export const isActive = (job: Pick<ExportJob, 'state'>): boolean => job.state === 'queued' || job.state === 'running'

/**
 * How far a job is, 0..1, when it can be told: rows counted against the rows the estimate
 * expected (csv/tsv, an exact estimate); null otherwise (xlsx, only a lower bound, or more rows
 * than expected: the estimate was wrong), and the bar just shows that it moves.
 */
export function fraction(job: Pick<ExportJob, 'state' | 'rows'>, expectedRows: number | null): number | null {
  if (job.state === 'done') return 1
  if (!isActive(job) || expectedRows === null || expectedRows <= 0 || job.rows === null || job.rows > expectedRows) return null
  return job.rows / expectedRows
}
