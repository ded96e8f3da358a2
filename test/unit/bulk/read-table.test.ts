import { describe, expect, it } from 'vitest'
import { detectSeparator, IMPORT_LIMITS, readImportTable } from '../../../main/services/bulk/read-table'

/** A file given in chunks of `size` characters, as a stream gives it. */
async function* chunks(text: string, size = 7): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text)
  for (let start = 0; start < bytes.length; start += size) yield bytes.subarray(start, start + size)
}

describe('reading an import file into rows', () => {
  it('skips a BOM and numbers rows from the header (row 1)', async () => {
    const table = await readImportTable(chunks('\uFEFFname,external_id\nAcme,A-1\nBeta,B-2\n'))
    expect(table.header).toEqual(['name', 'external_id'])
    expect(table.rows).toEqual([
      { row: 2, cells: ['Acme', 'A-1'] },
      { row: 3, cells: ['Beta', 'B-2'] },
    ])
    expect(table.problems).toEqual([])
  })

  it('detects ; and tab separators from the header, not from quoted names', async () => {
    expect(detectSeparator('name;external_id;advertiser_domains\na,b;c')).toBe(';')
    expect(detectSeparator('name\texternal_id\n')).toBe('\t')
    expect(detectSeparator('"a;b;c",d\n')).toBe(',')
    expect(detectSeparator('name\n')).toBe(',')
    const semicolons = await readImportTable(chunks('name;advertiser_domains\r\nAcme;"a.com;b.com"\r\n'))
    expect(semicolons.separator).toBe(';')
    expect(semicolons.rows[0]?.cells).toEqual(['Acme', 'a.com;b.com'])
    const tabs = await readImportTable(chunks('name\tsize\nTop\t300x250\n'))
    expect(tabs.separator).toBe('\t')
    expect(tabs.rows[0]?.cells).toEqual(['Top', '300x250'])
  })

  it('keeps line breaks inside quoted cells in one row', async () => {
    const table = await readImportTable(chunks('name,external_id\n"Two\nlines",X\nNext,Y\n', 3))
    expect(table.rows).toEqual([
      { row: 2, cells: ['Two\nlines', 'X'] },
      { row: 3, cells: ['Next', 'Y'] },
    ])
  })

  it('refuses, with a sentence and no rows, a cell past the per-cell bound instead of cutting it', async () => {
    const table = await readImportTable(chunks(`name\nshort\n${'x'.repeat(50)}\n`), { ...IMPORT_LIMITS, maxCellChars: 20 })
    expect(table.rows).toEqual([])
    expect(table.problems).toEqual([expect.stringMatching(/^Row 3 has a cell longer than 20 characters .* check that its quotes are closed\.$/)])
  })

  it('refuses a file past the byte bound, and one with too many rows, with a sentence', async () => {
    const big = await readImportTable(chunks('name\n' + 'abc\n'.repeat(100)), { ...IMPORT_LIMITS, maxBytes: 256 })
    expect(big.rows).toEqual([])
    expect(big.problems).toEqual(['The file is larger than 256 B; split it into smaller files and import each.'])
    const many = await readImportTable(chunks('name\n' + 'abc\n'.repeat(11)), IMPORT_LIMITS, 10)
    expect(many.rows).toEqual([])
    expect(many.problems).toEqual(['The file has more than 10 rows; split it into smaller files and import each.'])
    const exactly = await readImportTable(chunks('name\n' + 'abc\n'.repeat(10)), IMPORT_LIMITS, 10)
    expect(exactly.rows).toHaveLength(10)
  })

  it('says what to do with an empty file', async () => {
    const table = await readImportTable(chunks(''))
    expect(table.problems).toEqual(['The file is empty: its first row must name the columns, such as name or external_id.'])
  })

  it('reads a 100,000-row file looking at each character once', async () => {
    const body = Array.from({ length: 100_000 }, (_, index) => `Brand ${index},B-${index},true,false\n`).join('')
    const text = `name,external_id,is_open_auction_allowed,is_pmp_allowed\n${body}`
    const table = await readImportTable(chunks(text, 64 * 1024))
    expect(table.problems).toEqual([])
    expect(table.rows).toHaveLength(100_000)
    expect(table.rows.at(-1)).toEqual({ row: 100_001, cells: ['Brand 99999', 'B-99999', 'true', 'false'] })
    expect(table.scanned).toBeLessThanOrEqual(text.length)
  })
})
