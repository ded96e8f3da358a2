import type { Cell, ExportFile } from './export'
import { CHUNK_CHARACTERS, ChunkWriter } from './export-sink'
import type { ByteSink } from './export-sink'

/** RFC 4180: quote a field holding a comma, quote or line break; double the quotes inside. */
export function csvField(cell: Cell): string {
  if (cell === null) return ''
  if (typeof cell === 'number') return String(cell)
  const text = cell
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** docs/architecture.md: tsv escapes with backslashes: `\t`, `\n` and `\\` (and `\r`, which would break lines too). */
export function tsvField(cell: Cell): string {
  if (cell === null) return ''
  if (typeof cell === 'number') return String(cell)
  const text = cell
  return /[\t\n\r\\]/.test(text)
    ? text.replace(/[\t\n\r\\]/g, (character) => (character === '\t' ? '\\t' : character === '\n' ? '\\n' : character === '\r' ? '\\r' : '\\\\'))
    : text
}

export function csvLine(cells: readonly Cell[]): string {
  let line = ''
  for (let index = 0; index < cells.length; index++) line += (index === 0 ? '' : ',') + csvField(cells[index] ?? null)
  return `${line}\r\n`
}

export function tsvLine(cells: readonly Cell[]): string {
  let line = ''
  for (let index = 0; index < cells.length; index++) line += (index === 0 ? '' : '\t') + tsvField(cells[index] ?? null)
  return `${line}\n`
}

/** Streams a csv or tsv export: header, rows, in chunks that respect the sink's backpressure. */
export async function writeTextExport(plan: ExportFile, sink: ByteSink): Promise<void> {
  const line = plan.format === 'tsv' ? tsvLine : csvLine
  const encoder = new TextEncoder()
  const writer = new ChunkWriter(sink)
  let buffer = line(plan.columns)
  for (const row of plan.rows) {
    buffer += line(row)
    if (buffer.length >= CHUNK_CHARACTERS) {
      await writer.write(encoder.encode(buffer))
      if (writer.closed()) return
      buffer = ''
    }
  }
  if (buffer.length > 0) await writer.write(encoder.encode(buffer))
}
