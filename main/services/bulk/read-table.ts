import { formatBytes } from '../../../common/format'
import { csvTokenizer, readHead, type HeadLimits } from '../reports/csv-head'

/**
 * Stage 1 of an import: a CSV or TSV file read into rows, within fixed bounds. The file is the
 * user's (a spreadsheet's export, or anything): every byte is looked at once (the shared bounded
 * reader of reports/csv-head.ts), a cell or a record that is too long stops the read with a
 * sentence instead of being cut (a cut cell would be imported wrong), and so does a file that is
 * too large. A file with such a problem plans nothing: half a file is never planned.
 */

export type Separator = ',' | ';' | '\t'

/** A cell or a record past these stops reading (`onOverflow: 'stop'`): nothing is cut silently. */
export const IMPORT_LIMITS: HeadLimits = { maxBytes: 64 * 1024 * 1024, maxCellChars: 10_000, maxCells: 500, onOverflow: 'stop' }
/** Data rows a file may hold: a 100,000-row file is planned; past this the user splits the file. */
export const MAX_IMPORT_ROWS = 200_000

export interface TableRow {
  /** The record's number in the file, the header being row 1 (a blank line is not a record). */
  row: number
  cells: string[]
}

export interface ImportTable {
  separator: Separator
  /** The first record, each name trimmed. */
  header: string[]
  rows: TableRow[]
  /** Sentences about the file as a whole; when there is any, `rows` is empty. */
  problems: string[]
  /** Characters the reader looked at: at most one per character of the file (linear time, whatever the file). */
  scanned: number
}

const SEPARATORS: readonly Separator[] = [',', ';', '\t']

/**
 * The separator of the first line: whichever of comma, semicolon and tab it holds most outside
 * quotes (a comma on a tie, none found included). A header rarely quotes, but a quoted name may hold any of them.
 */
export function detectSeparator(sample: string): Separator {
  const counts = new Map<Separator, number>(SEPARATORS.map((separator) => [separator, 0]))
  let quoted = false
  for (let index = 0; index < sample.length; index++) {
    const character = sample[index] as string
    if (character === '"') quoted = !quoted
    else if (!quoted && (character === '\n' || character === '\r')) break
    else if (!quoted && counts.has(character as Separator)) counts.set(character as Separator, (counts.get(character as Separator) ?? 0) + 1)
  }
  let best: Separator = ','
  for (const separator of SEPARATORS) if ((counts.get(separator) ?? 0) > (counts.get(best) ?? 0)) best = separator
  return best
}

/** The first chunk is read to find the separator, then given to the reader again in front of the rest. */
async function* replay(first: Buffer | string | undefined, rest: AsyncIterator<Buffer | string>): AsyncGenerator<Buffer | string> {
  if (first !== undefined) yield first
  for (;;) {
    const next = await rest.next()
    if (next.done === true) return
    yield next.value
  }
}

const whole = (count: number): string => count.toLocaleString('en-US')

export async function readImportTable(
  source: AsyncIterable<Buffer | string>,
  limits: HeadLimits = IMPORT_LIMITS,
  maxRows: number = MAX_IMPORT_ROWS,
): Promise<ImportTable> {
  const iterator = source[Symbol.asyncIterator]()
  const first = await iterator.next()
  const firstChunk = first.done === true ? undefined : first.value
  const sample = firstChunk === undefined ? '' : typeof firstChunk === 'string' ? firstChunk : firstChunk.subarray(0, 64 * 1024).toString('utf8')
  const separator = detectSeparator(sample)
  // One record past the header and the rows allowed says the file has too many.
  const read = await readHead(replay(firstChunk, iterator), csvTokenizer(separator), maxRows + 2, limits)
  const empty = (problem: string): ImportTable => ({ separator, header: [], rows: [], problems: [problem], scanned: read.scanned })

  if (read.stop === 'bytes') {
    return empty(`The file is larger than ${formatBytes(limits.maxBytes)}; split it into smaller files and import each.`)
  }
  if (read.stop === 'overflow') {
    return empty(
      `Row ${whole(read.records.length + 1)} has a cell longer than ${whole(limits.maxCellChars)} characters or more than ${whole(limits.maxCells)} cells, so nothing was planned; check that its quotes are closed.`,
    )
  }
  if (read.stop === 'records') {
    return empty(`The file has more than ${whole(maxRows)} rows; split it into smaller files and import each.`)
  }
  const [header, ...body] = read.records
  if (header === undefined) return empty('The file is empty: its first row must name the columns, such as name or external_id.')
  return {
    separator,
    header: header.map((name) => name.trim()),
    rows: body.map((cells, index) => ({ row: index + 2, cells })),
    problems: [],
    scanned: read.scanned,
  }
}
