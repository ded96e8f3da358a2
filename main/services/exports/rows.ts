/**
 * Rows of a csv/tsv export counted as its bytes go by, and its last rows kept, without holding
 * the file: the counter sees each chunk once, and only the last few kilobytes are kept.
 *
 * csv (RFC 4180) may hold line breaks inside quoted fields, so a line feed ends a row only
 * outside quotes (a doubled quote inside a field flips the state twice and changes nothing).
 * tsv escapes its line breaks (`\n`), so every line feed ends a row.
 */

const LINE_FEED = 10
const QUOTE = 34
/** Enough for the last rows of any export (its Others and Total rows). */
const TAIL_BYTES = 16 * 1024

export interface RowCounter {
  push(chunk: Uint8Array): void
  /** Lines seen so far, the header included; a last line without a line break counts. */
  lines(): number
  /** The first cell of each of the last `count` rows, oldest first. */
  lastFirstCells(count: number): string[]
}

export function createRowCounter(format: 'csv' | 'tsv'): RowCounter {
  let lines = 0
  let inQuotes = false
  let lastByte = LINE_FEED
  const tail: Uint8Array[] = []
  let tailBytes = 0

  function count(chunk: Uint8Array): void {
    if (format === 'tsv' || (!inQuotes && chunk.indexOf(QUOTE) < 0)) {
      for (let index = chunk.indexOf(LINE_FEED); index >= 0; index = chunk.indexOf(LINE_FEED, index + 1)) lines += 1
      return
    }
    for (let index = 0; index < chunk.length; index++) {
      const byte = chunk[index]
      if (byte === QUOTE) inQuotes = !inQuotes
      else if (byte === LINE_FEED && !inQuotes) lines += 1
    }
  }

  return {
    push(chunk) {
      if (chunk.length === 0) return
      count(chunk)
      lastByte = chunk[chunk.length - 1] as number
      tail.push(chunk)
      tailBytes += chunk.length
      while (tail.length > 1 && tailBytes - (tail[0] as Uint8Array).length >= TAIL_BYTES) tailBytes -= (tail.shift() as Uint8Array).length
    },
    lines: () => lines + (lastByte === LINE_FEED ? 0 : 1),
    lastFirstCells(wanted) {
      const text = Buffer.concat(tail).toString('utf8')
      const rows = text.split('\n').map((line) => line.replace(/\r$/, ''))
      if (rows.at(-1) === '') rows.pop()
      // The first line of the tail may be cut; a file shorter than the tail starts whole.
      const whole = tailBytes >= TAIL_BYTES ? rows.slice(1) : rows
      return whole.slice(-wanted).map((line) => firstCell(line, format))
    },
  }
}

export function firstCell(line: string, format: 'csv' | 'tsv'): string {
  if (format === 'tsv') {
    const end = line.indexOf('\t')
    return (end < 0 ? line : line.slice(0, end)).replace(/\\([tnr\\])/g, (_match, escaped: string) => ({ t: '\t', n: '\n', r: '\r' })[escaped] ?? '\\')
  }
  if (!line.startsWith('"')) {
    const end = line.indexOf(',')
    return end < 0 ? line : line.slice(0, end)
  }
  let cell = ''
  for (let index = 1; index < line.length; index++) {
    const character = line[index]
    if (character !== '"') cell += character
    else if (line[index + 1] === '"') {
      cell += '"'
      index += 1
    } else break
  }
  return cell
}

/**
 * The platform sums the rows past its cap into one last row whose first key cell is `Others`
 * (see the sandbox's export.ts); a `Total` row, when asked for, comes after it.
 */
export function endsWithOthers(lastCells: readonly string[], includeTotal: boolean): boolean {
  const last = lastCells.at(-1)
  if (last === 'Others') return true
  return includeTotal && last === 'Total' && lastCells.at(-2) === 'Others'
}
