/**
 * A csv/tsv export's first line renamed as the screens name its columns, on the way to the file.
 * Only the header is touched: chunks are held until the first line feed, the header is rewritten,
 * and every byte after it goes through as the platform sent it (no decoding, no per-row work: the
 * csv export is held at the speed of a plain download).
 */
import { Readable, Transform, pipeline } from 'node:stream'

const LINE_FEED = 10
/** A header longer than this without a line break is left as it is (no file of ours has one). */
const MAX_HEADER_BYTES = 256 * 1024

type Download = AsyncIterable<Buffer> & { destroy(): void }

const isReadable = (value: Download): value is Download & Readable => value instanceof Readable

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

/**
 * The download with its first line renamed; destroying it closes the download. A Transform, not
 * an async generator: past the header each chunk is handed on in the callback it came with, no
 * promise awaited per chunk (the exports bench found a generator on this path costing more CPU
 * than the disk did).
 */
export function withRenamedHeader(body: Download, format: 'csv' | 'tsv', labels: Readonly<Record<string, string>>): Transform {
  let held: Buffer[] = []
  let heldBytes = 0
  let renamed = false
  const renamedStart = (start: Buffer): Buffer => {
    const end = start.indexOf(LINE_FEED)
    if (end < 0) return start
    const lineEnd = end > 0 && start[end - 1] === 13 ? end - 1 : end
    const header = renameHeader(start.subarray(0, lineEnd).toString('utf8'), format, labels)
    return Buffer.concat([Buffer.from(header, 'utf8'), start.subarray(lineEnd)])
  }
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (renamed) return done(null, chunk)
      held.push(chunk)
      heldBytes += chunk.length
      if (chunk.indexOf(LINE_FEED) < 0 && heldBytes < MAX_HEADER_BYTES) return done()
      const start = Buffer.concat(held, heldBytes)
      held = []
      renamed = true
      done(null, renamedStart(start))
    },
    flush(done) {
      // A file of one line with no line break: its header is renamed all the same.
      if (!renamed && heldBytes > 0) return done(null, Buffer.from(renameHeader(Buffer.concat(held, heldBytes).toString('utf8'), format, labels), 'utf8'))
      done()
    },
  })
  // The platform's stream is piped as it is (the usual case): no iteration between. The pipeline
  // hands a download's error on to the file's side, and ends the download when that side stops.
  pipeline(isReadable(body) ? body : Readable.from(body, { objectMode: false }), transform, () => undefined)
  return transform
}
