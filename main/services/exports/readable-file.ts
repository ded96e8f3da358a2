import type { ExportFormat } from '@contract'
import type { ExportColumns } from './export-columns'
import { withRenamedHeader } from './header-line'
import { withReadableXlsx } from './xlsx-export-stream'

type Download = AsyncIterable<Buffer> & { destroy(): void }

/**
 * The platform's file as the user reads it: a csv/tsv with its header line renamed (the rest of
 * the bytes untouched), an xlsx with its header renamed and its dates typed. A file asked for in
 * the API's names, with nothing to type, goes through as the platform sent it.
 */
export function readableFile(body: Download, format: ExportFormat, columns: ExportColumns): Download {
  if (format === 'xlsx') return columns.labels === null && Object.keys(columns.dates).length === 0 ? body : withReadableXlsx(body, columns)
  return columns.labels === null ? body : withRenamedHeader(body, format, columns.labels)
}
