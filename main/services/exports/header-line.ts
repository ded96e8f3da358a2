/**
 * A csv/tsv export's first line renamed as the screens name its columns, on the way to the file.
 * Only the header is touched: chunks are held until the first line feed, the header is rewritten,
 * and every byte after it goes through as the platform sent it (no decoding, no per-row work: the
 * csv export is held at the speed of a plain download).
 */

const LINE_FEED = 10
/** A header longer than this without a line break is left as it is (no file of ours has one). */
const MAX_HEADER_BYTES = 256 * 1024

type Download = AsyncIterable<Buffer> & { destroy(): void }

/** The cells of a header line: csv as RFC 4180 quotes them, tsv with its backslash escapes. */
function headerCells(line: string, format: 'csv' | 'tsv'): string[] {
  if (format === 'tsv')
    return line.split('\t').map((cell) => cell.replace(/\\([tnr\\])/g, (_match, escaped: string) => ({ t: '\t', n: '\n', r: '\r' })[escaped] ?? '\\'))
  const cells: string[] = []
  let cell = ''
  let quoted = false
  for (let index = 0; index < line.length; index++) {
    const character = line[index] as string
    if (quoted) {
      if (character !== '"') cell += character
      else if (line[index + 1] === '"') {
        cell += '"'
        index += 1
      } else quoted = false
    } else if (character === '"') quoted = true
    else if (character === ',') {
      cells.push(cell)
      cell = ''
    } else cell += character
  }
  cells.push(cell)
  return cells
}

function headerField(text: string, format: 'csv' | 'tsv'): string {
  if (format === 'tsv') return text.replace(/[\t\n\r\\]/g, (character) => ({ '\t': '\\t', '\n': '\\n', '\r': '\\r' })[character] ?? '\\\\')
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** The header line (without its line break) with each API name replaced by its label; names without one stay. */
export function renameHeader(line: string, format: 'csv' | 'tsv', labels: Readonly<Record<string, string>>): string {
  const bom = line.startsWith('\uFEFF') ? '\uFEFF' : ''
  const cells = headerCells(line.slice(bom.length), format)
  return bom + cells.map((name) => headerField(Object.hasOwn(labels, name) ? (labels[name] as string) : name, format)).join(format === 'tsv' ? '\t' : ',')
}

/** The download with its first line renamed; destroying it closes the download. */
export function withRenamedHeader(body: Download, format: 'csv' | 'tsv', labels: Readonly<Record<string, string>>): Download {
  return {
    async *[Symbol.asyncIterator]() {
      let held: Buffer[] = []
      let heldBytes = 0
      let renamed = false
      for await (const chunk of body) {
        if (renamed) {
          yield chunk
          continue
        }
        held.push(chunk)
        heldBytes += chunk.length
        const lineFeed = chunk.indexOf(LINE_FEED)
        if (lineFeed < 0 && heldBytes < MAX_HEADER_BYTES) continue
        const start = Buffer.concat(held, heldBytes)
        held = []
        renamed = true
        const end = start.indexOf(LINE_FEED)
        if (end < 0) {
          yield start
          continue
        }
        const lineEnd = end > 0 && start[end - 1] === 13 ? end - 1 : end
        const header = renameHeader(start.subarray(0, lineEnd).toString('utf8'), format, labels)
        yield Buffer.concat([Buffer.from(header, 'utf8'), start.subarray(lineEnd)])
      }
      // A file of one line with no line break: its header is renamed all the same.
      if (!renamed && heldBytes > 0) yield Buffer.from(renameHeader(Buffer.concat(held, heldBytes).toString('utf8'), format, labels), 'utf8')
    },
    destroy: () => body.destroy(),
  }
}
