import { formatBytes } from './failures'
import type { ExportRecord } from './job-history'
import type { ExportSignals } from './signals'

type EndNotification = Parameters<ExportSignals['ended']>[0]

/**
 * What the desktop says when a job ends unseen: the file, its size and whether the platform
 * capped it, or why it failed. A cancelled or interrupted job says nothing: the user did it.
 */
export function endNotification(record: ExportRecord): EndNotification | null {
  if (record.state === 'done') {
    const size = record.rows === null ? formatBytes(record.bytes) : `${record.rows.toLocaleString('en-US')} rows, ${formatBytes(record.bytes)}`
    return {
      title: 'Export finished',
      body: `${record.fileName} (${size})${record.capped === true ? ', capped by the platform' : ''}`,
      failed: false,
    }
  }
  if (record.state === 'failed') return { title: 'Export failed', body: record.error ?? `${record.fileName} was not saved.`, failed: true }
  return null
}
