import type { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { renameHeader, withRenamedHeader } from '../../../main/services/exports/header-line'

function download(chunks: string[]): AsyncIterable<Buffer> & { destroy(): void } {
  return {
    async *[Symbol.asyncIterator]() {
      for (const chunk of chunks) yield Buffer.from(chunk, 'utf8')
    },
    destroy: () => undefined,
  }
}

/** The chunks as the file's side receives them (a pipe reads 'data' as each is pushed). */
function collected(source: Readable): Promise<Buffer[]> {
  const chunks: Buffer[] = []
  return new Promise((resolve, reject) => {
    source.on('data', (chunk: Buffer) => chunks.push(chunk))
    source.on('end', () => resolve(chunks))
    source.on('error', reject)
  })
}

const labels = { publisher: 'Publisher', 'publisher Name': 'Publisher name', granularity_day: 'Day', revenue: 'Revenue, USD' }

describe("a csv/tsv export's header line", () => {
  it('renames the first line only, across chunk boundaries, and passes every later chunk through as it came', async () => {
    const rest = Buffer.from('2,"b, c",2026-12-02,4\r\n')
    const source = download(['publ', 'isher,publisher Name,granularity_day,revenue\r\n1,a,2026-12-01,3\r\n', rest.toString('utf8')])
    const chunks = await collected(withRenamedHeader(source, 'csv', labels))
    expect(Buffer.concat(chunks).toString('utf8')).toBe('Publisher,Publisher name,Day,"Revenue, USD"\r\n1,a,2026-12-01,3\r\n2,"b, c",2026-12-02,4\r\n')
    // Past the header a chunk is handed on as it came: the same bytes, in a chunk of its own.
    expect(chunks.at(-1)?.equals(rest)).toBe(true)
    expect(chunks).toHaveLength(2)
  })

  it('keeps names it has no label for, a byte order mark, and tsv escapes', () => {
    expect(renameHeader('\uFEFFpublisher,"odd ""name"""', 'csv', labels)).toBe('\uFEFFPublisher,"odd ""name"""')
    expect(renameHeader('granularity_day\tother', 'tsv', labels)).toBe('Day\tother')
  })

  it('renames a file of one line with no line break', async () => {
    expect(Buffer.concat(await collected(withRenamedHeader(download(['publisher']), 'csv', labels))).toString('utf8')).toBe('Publisher')
  })
})
