import type { ExportFormat } from '@contract'
import type { ExportColumns } from './export-columns'
import { withRenamedHeader } from './header-line'

type Download = AsyncIterable<Buffer> & { destroy(): void }

/**
 * The platform's file as the user reads it: a csv/tsv with its header line renamed (the rest of
 * the bytes untouched), an xlsx with its header renamed and its dates typed. A file asked for in
 * the API's names, with nothing to type, goes through as the platform sent it. The xlsx side
 * (and fflate with it) is loaded only for an xlsx file: the command line starts without it
 * (test/integration/cli/start-graph.test.ts).
 */
export async function readableFile(body: Download, format: ExportFormat, columns: ExportColumns): Promise<Download> {
  if (format !== 'xlsx') return columns.labels === null ? body : withRenamedHeader(body, format, columns.labels)
  if (columns.labels === null && Object.keys(columns.dates).length === 0) return body
  const { withReadableXlsx } = await import('./xlsx-export-stream')
  return withReadableXlsx(body, columns)
}
