import { createReadStream } from 'node:fs'
import { StringDecoder } from 'node:string_decoder'
import { readCsvHead } from '../reports/csv-head'

/**
 * The first rows of a finished csv/tsv export, read from the file and parsed in main (the page
 * never reads files). Reading stops once the rows are in, so a 1,000,000-row file costs a chunk.
 */
export async function readExportHead(filePath: string, format: 'csv' | 'tsv', rows: number): Promise<{ columns: string[]; rows: string[][]; more: boolean }> {
  // One record past the header and the rows says whether there is more.
  const wanted = rows + 2
  const stream = createReadStream(filePath, { highWaterMark: 64 * 1024 })
  try {
    const records = format === 'csv' ? await readCsvHead(stream, wanted) : await readTsvHead(stream, wanted)
    const [columns = [], ...body] = records
    return { columns, rows: body.slice(0, rows), more: body.length > rows }
  } finally {
    stream.destroy()
  }
}

const TSV_ESCAPES: Record<string, string> = { t: '\t', n: '\n', r: '\r', '\\': '\\' }

/** tsv as the platform writes it (DESIGN.md): tab-separated, line per row, `\t` `\n` `\r` `\\` escaped. */
export async function readTsvHead(source: AsyncIterable<Buffer | string>, maxRecords: number): Promise<string[][]> {
  const records: string[][] = []
  const decoder = new StringDecoder('utf8')
  let pending = ''
  const take = (line: string): boolean => {
    const clean = line.endsWith('\r') ? line.slice(0, -1) : line
    if (clean !== '') records.push(clean.split('\t').map((cell) => cell.replace(/\\([tnr\\])/g, (_match, escaped: string) => TSV_ESCAPES[escaped] ?? escaped)))
    return records.length >= maxRecords
  }
  for await (const chunk of source) {
    pending += typeof chunk === 'string' ? chunk : decoder.write(chunk)
    let start = 0
    for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n', start)) {
      if (take(pending.slice(start, end))) return records
      start = end + 1
    }
    pending = pending.slice(start)
  }
  pending += decoder.end()
  if (pending !== '') take(pending)
  return records
}
