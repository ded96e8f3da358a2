import { StringDecoder } from 'node:string_decoder'

/**
 * The first records of a csv or tsv stream, read within fixed bounds. The stream may come from a
 * server that never stops (the ranking export) or be a hostile file (an export's preview), so:
 * - at most `maxBytes` bytes are read; past them reading stops (`stop: 'bytes'`);
 * - a cell keeps at most `maxCellChars` characters and a record `maxCells` cells: a longer cell
 *   is cut and ends with CUT_MARK, extra cells are dropped, or reading stops (`onOverflow`);
 * - every character is looked at once (`scanned` counts them): text is taken in slices between
 *   separators, never character by character (a string grown one character at a time cost
 *   ~38 bytes of heap per byte) and never re-scanned from the last line break.
 * Reading stops as soon as the records are in: leaving the loop destroys the stream, which
 * closes a download, so a million-row export costs one chunk.
 */
export interface HeadLimits {
  maxBytes: number
  maxCellChars: number
  maxCells: number
  /** 'mark': cut the cell (or drop the extra cells) and go on; 'stop': stop reading at once (`stop: 'overflow'`). */
  onOverflow: 'mark' | 'stop'
}

export interface HeadRead {
  records: string[][]
  /** Why reading stopped: the records were in, the stream ended, the byte bound, or a cell or record too long under 'stop'. */
  stop: 'records' | 'end' | 'bytes' | 'overflow'
  /** Cells cut at `maxCellChars`, plus cells dropped past `maxCells`. */
  cutCells: number
  /** Bytes taken from the stream (never more than `maxBytes`). */
  bytes: number
  /** Characters the parser looked at: at most one per character received. */
  scanned: number
}

/** Ends a cell cut at its length bound, so the page shows there was more. */
export const CUT_MARK = '…'

export const DEFAULT_HEAD_LIMITS: HeadLimits = { maxBytes: 8 * 1024 * 1024, maxCellChars: 64 * 1024, maxCells: 1_000, onOverflow: 'mark' }

/** Where a tokenizer puts what it reads: cells in slices, within the bounds. */
export interface HeadBuilder {
  /** Adds `text[from, to)` to the cell; false when reading must stop (a cell too long under 'stop'). */
  append(text: string, from: number, to: number): boolean
  /** The cell has begun (a quote opened it), even if it stays empty. */
  start(): void
  started(): boolean
  /** Ends the cell; false when reading must stop (too many cells under 'stop'). */
  endCell(): boolean
  /** Ends the record; 'records' once there are enough, 'overflow' when reading must stop. */
  endRecord(): 'more' | 'records' | 'overflow'
  /** Counts characters looked at. */
  scan(count: number): void
}

/** A format's parser, fed decoded text in order; it keeps its own state between chunks. */
export interface Tokenizer {
  feed(text: string, head: HeadBuilder): 'more' | 'records' | 'overflow'
  /** The stream ended (or reading stopped at the byte bound): settle any half-read state. */
  finish(head: HeadBuilder): void
}

export async function readHead(
  source: AsyncIterable<Buffer | string>,
  tokenizer: Tokenizer,
  maxRecords: number,
  limits: HeadLimits = DEFAULT_HEAD_LIMITS,
): Promise<HeadRead> {
  const state: HeadRead = { records: [], stop: 'records', cutCells: 0, bytes: 0, scanned: 0 }
  if (maxRecords <= 0) return state
  let record: string[] = []
  let cell = ''
  let cellStarted = false
  let cellCut = false

  const head: HeadBuilder = {
    append(text, from, to) {
      if (to <= from) return true
      cellStarted = true
      if (cellCut) return true
      const room = limits.maxCellChars - cell.length
      if (to - from <= room) {
        cell += text.slice(from, to)
        return true
      }
      cell += text.slice(from, from + room)
      cellCut = true
      return limits.onOverflow === 'mark'
    },
    start: () => {
      cellStarted = true
    },
    started: () => cellStarted,
    endCell() {
      const kept = record.length < limits.maxCells
      if (kept) record.push(cellCut ? cell + CUT_MARK : cell)
      if (cellCut || !kept) state.cutCells++
      cell = ''
      cellStarted = false
      cellCut = false
      return kept || limits.onOverflow === 'mark'
    },
    endRecord() {
      const going = head.endCell()
      // A blank line is not a record.
      if (!(record.length === 1 && record[0] === '')) state.records.push(record)
      record = []
      if (!going) return 'overflow'
      return state.records.length >= maxRecords ? 'records' : 'more'
    },
    scan(count) {
      state.scanned += count
    },
  }
  /** What was read of a record the stream (or the byte bound) cut off is a record too. */
  const flush = () => {
    tokenizer.finish(head)
    if (cellStarted || cell !== '' || record.length > 0) head.endRecord()
  }

  const decoder = new StringDecoder('utf8')
  for await (const chunk of source) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
    const room = limits.maxBytes - state.bytes
    const taken = bytes.length > room ? bytes.subarray(0, room) : bytes
    state.bytes += taken.length
    const outcome = tokenizer.feed(decoder.write(taken), head)
    if (outcome !== 'more') {
      state.stop = outcome
      return state
    }
    if (taken !== bytes) {
      state.stop = 'bytes'
      flush()
      return state
    }
  }
  const outcome = tokenizer.feed(decoder.end(), head)
  if (outcome !== 'more') {
    state.stop = outcome
    return state
  }
  state.stop = 'end'
  flush()
  return state
}

/**
 * Where the next of `breaks` (character codes) is in `text` from `from`, or -1. A plain loop over
 * character codes: a regular expression's match object per separator cost ~0.5 µs each, which a
 * file of nothing but commas or line breaks turns into seconds.
 */
export function nextBreak(text: string, from: number, breaks: readonly [number, number, number, number]): number {
  const [first, second, third, fourth] = breaks
  for (let index = from; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (code === first || code === second || code === third || code === fourth) return index
  }
  return -1
}

/**
 * RFC 4180: quoted fields may hold separators, quotes and line breaks; CRLF or LF ends a record; a
 * leading BOM is skipped. The separator is a comma unless said (`;` and tab: spreadsheet exports).
 */
export function csvTokenizer(separator: ',' | ';' | '\t' = ','): Tokenizer {
  // What ends an unquoted cell: the separator, CR, LF (the last one twice: four are looked for).
  const breaks = [separator.charCodeAt(0), 13, 10, 10] as const
  let quoted = false
  /** The last character was the closing quote of a quoted field, or a doubled quote's first half. */
  let quoteSeen = false
  let atStart = true
  return {
    feed(text, head) {
      let index = 0
      if (atStart && text.length > 0) {
        atStart = false
        if (text[0] === '\uFEFF') index = 1
      }
      while (index < text.length) {
        if (quoted) {
          if (quoteSeen) {
            quoteSeen = false
            if (text[index] === '"') {
              head.scan(1)
              if (!head.append('"', 0, 1)) return 'overflow'
              index++
              continue
            }
            // The quote closed the field: what follows is read as unquoted.
            quoted = false
            continue
          }
          const close = text.indexOf('"', index)
          const end = close < 0 ? text.length : close
          head.scan(end - index + (close < 0 ? 0 : 1))
          if (!head.append(text, index, end)) return 'overflow'
          if (close < 0) return 'more'
          quoteSeen = true
          index = close + 1
          continue
        }
        if (!head.started() && text[index] === '"') {
          head.scan(1)
          quoted = true
          head.start()
          index++
          continue
        }
        const found = nextBreak(text, index, breaks)
        const end = found < 0 ? text.length : found
        head.scan(end - index + (found < 0 ? 0 : 1))
        if (!head.append(text, index, end)) return 'overflow'
        if (found < 0) return 'more'
        index = end + 1
        if (text[found] === separator) {
          if (!head.endCell()) return 'overflow'
          continue
        }
        if (text[found] === '\r' && text[index] === '\n') {
          head.scan(1)
          index++
        }
        const ended = head.endRecord()
        if (ended !== 'more') return ended
      }
      return 'more'
    },
    finish() {
      if (quoted && quoteSeen) quoted = false
    },
  }
}

/** The first records of a CSV stream within `limits`; see `readHead`. */
export function readCsvHead(source: AsyncIterable<Buffer | string>, maxRecords: number, limits: HeadLimits = DEFAULT_HEAD_LIMITS): Promise<HeadRead> {
  return readHead(source, csvTokenizer(), maxRecords, limits)
}
