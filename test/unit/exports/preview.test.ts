import { promises as fs } from 'node:fs'
import path from 'node:path'
import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { CUT_MARK, readCsvHead } from '../../../main/services/reports/csv-head'
import { PREVIEW_LIMITS, readExportHead, readTsvHead } from '../../../main/services/exports/preview'
import { temporaryFolder } from '../../support/services'

/** A file of `head`, then `filler` repeated to `bytes`: far past the preview's byte bound. */
async function hostileFile(name: string, head: string, filler: string, bytes: number): Promise<string> {
  const file = path.join(await temporaryFolder('adops-preview-'), name)
  const block = Buffer.from(filler.repeat(Math.ceil((64 * 1024) / filler.length)))
  const handle = await fs.open(file, 'w')
  try {
    await handle.write(head)
    for (let written = 0; written < bytes; written += block.length) await handle.write(block)
  } finally {
    await handle.close()
  }
  return file
}

const TOO_MUCH = PREVIEW_LIMITS.maxBytes + 4 * 1024 * 1024

describe('previewing a hostile export file', () => {
  it('a csv whose quote never closes: the read stops at the byte bound, the cell is cut with a mark, and the answer says so', async () => {
    const file = await hostileFile('open-quote.csv', 'name,impressions\r\nfine,1\r\n"', 'x', TOO_MUCH)
    const preview = await readExportHead(file, 'csv', 1_000)
    expect(preview.columns).toEqual(['name', 'impressions'])
    expect(preview.rows[0]).toEqual(['fine', '1'])
    const cut = preview.rows[1]?.[0] ?? ''
    expect(cut).toHaveLength(PREVIEW_LIMITS.maxCellChars + 1)
    expect(cut.endsWith(CUT_MARK)).toBe(true)
    expect(preview.more).toBe(true)
    expect(preview.notes.join(' ')).toMatch(/stopped after the first 8 MB/)
    expect(preview.notes.join(' ')).toMatch(/Cells longer than 1,000 characters are cut and end with …/)
    // Nothing close to the file's size goes to the page.
    expect(JSON.stringify(preview).length).toBeLessThan(10_000)
  })

  it('a single-line tsv: read once, linearly, and cut', async () => {
    const file = await hostileFile('one-line.tsv', 'name\timpressions\n', 'y', TOO_MUCH)
    const preview = await readExportHead(file, 'tsv', 1_000)
    expect(preview.columns).toEqual(['name', 'impressions'])
    expect(preview.rows).toEqual([[`${'y'.repeat(PREVIEW_LIMITS.maxCellChars)}${CUT_MARK}`]])
    expect(preview.more).toBe(true)
    expect(preview.notes).toHaveLength(2)
  })

  it('every character of a line that never ends is looked at once, however many chunks it comes in', async () => {
    const chunks = Array.from({ length: 500 }, () => Buffer.from('z'.repeat(8 * 1024)))
    const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0)
    const tsv = await readTsvHead(Readable.from(chunks), 10)
    // The old reader re-scanned everything since the last line break at every chunk: 500 × 250 × 8 KiB.
    expect(tsv.scanned).toBe(total)
    expect(tsv.bytes).toBe(total)
    const csv = await readCsvHead(Readable.from([Buffer.from('"'), ...chunks]), 10)
    expect(csv.scanned).toBe(total + 1)
  })

  it('a row of more cells than the bound keeps the first ones and says so', async () => {
    const file = path.join(await temporaryFolder('adops-preview-'), 'wide.csv')
    await fs.writeFile(file, `${Array.from({ length: 1_500 }, (_, index) => `c${index}`).join(',')}\r\n`)
    const preview = await readExportHead(file, 'csv', 1_000)
    expect(preview.columns).toHaveLength(PREVIEW_LIMITS.maxCells)
    expect(preview.columns.at(-1)).toBe(`c${PREVIEW_LIMITS.maxCells - 1}`)
    expect(preview.notes.join(' ')).toMatch(/a row shows at most 1,000 cells/)
  })

  it('an ordinary file is shown as it is, with no notes', async () => {
    const folder = await temporaryFolder('adops-preview-')
    const file = path.join(folder, 'fine.csv')
    await fs.writeFile(file, 'name,impressions\r\n"Acme, Inc",12\r\nplain,3\r\n')
    expect(await readExportHead(file, 'csv', 1)).toEqual({ columns: ['name', 'impressions'], rows: [['Acme, Inc', '12']], more: true, notes: [] })
    const tsv = path.join(folder, 'fine.tsv')
    await fs.writeFile(tsv, 'name\timpressions\r\nback\\\\slash\\tand tab\t1\n')
    expect(await readExportHead(tsv, 'tsv', 10)).toEqual({ columns: ['name', 'impressions'], rows: [['back\\slash\tand tab', '1']], more: false, notes: [] })
  })
})
