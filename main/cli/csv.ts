import { createReadStream, promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { csvRow } from '../services/files/csv'

export { csvField, csvRow } from '../services/files/csv'

const FLUSH_AT = 64 * 1024

/**
 * Writes records as CSV whose header is the union of every record's fields, in order of first
 * appearance. The header is only known after the last record, so records are spooled to a
 * temporary file as JSON lines first: memory stays bounded however many pages there are.
 */
export async function writeCsv(
  pages: AsyncIterable<ReadonlyArray<Record<string, unknown>>>,
  write: (text: string) => Promise<void>,
  tmpDir: string = os.tmpdir(),
): Promise<number> {
  const folder = await fs.mkdtemp(path.join(tmpDir, 'adops-csv-'))
  const spool = path.join(folder, 'records.jsonl')
  try {
    const columns = new Map<string, true>()
    let rows = 0
    const handle = await fs.open(spool, 'w', 0o600)
    try {
      for await (const page of pages) {
        let chunk = ''
        for (const record of page) {
          for (const key of Object.keys(record)) columns.set(key, true)
          chunk += `${JSON.stringify(record)}\n`
        }
        rows += page.length
        if (chunk !== '') await handle.write(chunk)
      }
    } finally {
      await handle.close()
    }

    const header = [...columns.keys()]
    // No entities, no fields: an empty output rather than a blank header line.
    if (header.length === 0) return 0
    let buffer = csvRow(header)
    const lines = createInterface({ input: createReadStream(spool, { encoding: 'utf8' }), crlfDelay: Infinity })
    for await (const line of lines) {
      if (line === '') continue
      const record = JSON.parse(line) as Record<string, unknown>
      buffer += csvRow(header.map((column) => record[column]))
      if (buffer.length >= FLUSH_AT) {
        await write(buffer)
        buffer = ''
      }
    }
    if (buffer !== '') await write(buffer)
    return rows
  } finally {
    await fs.rm(folder, { recursive: true, force: true })
  }
}
