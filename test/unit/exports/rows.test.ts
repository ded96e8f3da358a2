import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { csvLine, tsvLine } from '../../../main/sandbox/reporting/export-csv'
import type { Cell } from '../../../main/sandbox/reporting/export'
import { createRowCounter, endsWithOthers } from '../../../main/services/exports/rows'
import { readTsvHead } from '../../../main/services/exports/preview'

/** A file as the sandbox writes it, cut into chunks of `size` bytes (so rows and quotes straddle chunks). */
function chunks(text: string, size: number): Buffer[] {
  const bytes = Buffer.from(text)
  const parts: Buffer[] = []
  for (let start = 0; start < bytes.length; start += size) parts.push(bytes.subarray(start, start + size))
  return parts
}

function fileOf(write: (cells: readonly Cell[]) => string, rows: Cell[][]): string {
  return [['page_url', 'impressions'], ...rows].map((row) => write(row)).join('')
}

describe('counting the rows of a streamed export', () => {
  const rows: Cell[][] = Array.from({ length: 5_000 }, (_, index) => [`https://site.example/page-${index}`, index])
  const awkward: Cell[][] = [
    ['line\nbreak, "quoted"', 1],
    ['tab\there', 2],
    ['back\\slash', 3],
  ]

  it.each([7, 4_096, 1_000_000])('counts csv rows exactly with quoted line breaks, in chunks of %i bytes', (size) => {
    const counter = createRowCounter('csv')
    for (const chunk of chunks(fileOf(csvLine, [...awkward, ...rows, ['Others', 99]]), size)) counter.push(chunk)
    expect(counter.lines() - 1).toBe(awkward.length + rows.length + 1)
    expect(counter.lastFirstCells(2)).toEqual(['https://site.example/page-4999', 'Others'])
  })

  it('counts tsv rows (escaped breaks) and reads the Others row before a Total row', () => {
    const counter = createRowCounter('tsv')
    for (const chunk of chunks(fileOf(tsvLine, [...awkward, ...rows, ['Others', 99], ['Total', 100]]), 999)) counter.push(chunk)
    expect(counter.lines() - 1).toBe(awkward.length + rows.length + 2)
    const last = counter.lastFirstCells(2)
    expect(last).toEqual(['Others', 'Total'])
    expect(endsWithOthers(last, true)).toBe(true)
    // Without Total asked for, a last row named Total is data, and the one before it does not count.
    expect(endsWithOthers(last, false)).toBe(false)
    expect(endsWithOthers(['https://site.example/page-4999', 'Total'], true)).toBe(false)
  })

  it('a file shorter than the tail keeps its header and first row; a quoted Others is still Others', () => {
    const counter = createRowCounter('csv')
    counter.push(Buffer.from('"a,b",x\r\n"Others",1'))
    expect(counter.lines()).toBe(2)
    expect(counter.lastFirstCells(5)).toEqual(['a,b', 'Others'])
  })

  it('reads tsv as the platform escapes it', async () => {
    const { records } = await readTsvHead(Readable.from(chunks(fileOf(tsvLine, awkward), 3)), 10)
    expect(records).toEqual([
      ['page_url', 'impressions'],
      ['line\nbreak, "quoted"', '1'],
      ['tab\there', '2'],
      ['back\\slash', '3'],
    ])
  })
})
