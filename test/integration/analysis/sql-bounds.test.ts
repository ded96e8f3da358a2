import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createAnalysis, type Analysis } from '../../../main/services/analysis/analysis'
import { createOpenedFiles } from '../../../main/services/analysis/opened-files'

/**
 * What the SQL box and the opened files may hold (issue 38, items 4 and 5): an answer is read
 * chunk by chunk within a byte bound and a per-cell bound; the time limit covers planning too
 * (DuckDB folds constants while preparing), on the query's own connection, so a pivot of the
 * same file does not wait behind it; and the files open at once are capped and de-duplicated.
 */

let folder: string
let analysis: Analysis

const SALES = 'publisher,country,revenue\nA,US,10\nA,FR,5\nB,US,30\n'
const file = (name: string, content: string): string => {
  const filePath = path.join(folder, name)
  writeFileSync(filePath, content)
  return filePath
}

beforeAll(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'analysis-bounds-'))
})
afterAll(() => rmSync(folder, { recursive: true, force: true }))
afterEach(() => analysis?.dispose())

describe('the SQL box answer is bounded in bytes, not only in rows', () => {
  it('a cell longer than the cell bound is cut with an ellipsis, and said', async () => {
    analysis = createAnalysis()
    const opened = await analysis.open(file('sales.csv', SALES))
    const answer = await analysis.sql([opened.id], "SELECT repeat('x', 1000000) AS big, 7 AS n, 'short' AS s FROM range(3)")
    expect(answer.rows).toHaveLength(3)
    for (const [big, n, short] of answer.rows) {
      expect(big).toBe(`${'x'.repeat(32_768)}…`)
      expect([n, short]).toEqual([7, 'short'])
    }
    expect(answer.truncated).toBe(false)
    expect(answer.notes).toEqual(['3 cells were longer than 32,768 characters; they are cut, ending in …'])
  })

  it('an answer past the byte bound stops being read there, with a sentence', async () => {
    analysis = createAnalysis()
    const opened = await analysis.open(file('sales.csv', SALES))
    const answer = await analysis.sql([opened.id], "SELECT repeat('y', 10000) AS wide FROM range(1000)", { maxAnswerBytes: 1024 * 1024 })
    expect(answer.rows.length).toBeGreaterThan(90)
    expect(answer.rows.length).toBeLessThan(110)
    expect(answer.truncated).toBe(true)
    expect(answer.notes.join(' ')).toContain('reached 1.0 MB after')
  })

  it('nested values are read as text and cut in the engine too', async () => {
    analysis = createAnalysis()
    const opened = await analysis.open(file('sales.csv', SALES))
    const answer = await analysis.sql([opened.id], "SELECT [repeat('z', 100000)] AS list, DATE '2024-01-02' AS day")
    const [list, day] = answer.rows[0] ?? []
    expect(String(list)).toHaveLength(32_769)
    expect(day).toBe('2024-01-02')
  })
})

describe('the time limit covers planning, on a connection of the query alone', () => {
  it('a query folding a huge constant fails at the limit, and a pivot of the same file answers meanwhile', async () => {
    analysis = createAnalysis({ openedFiles: createOpenedFiles({ engineLimits: { rowCap: 100, timeLimitMs: 1_000, memoryLimit: '512MB' } }) })
    const opened = await analysis.open(file('sales.csv', SALES))
    // The same fold on a database of its own: when it ends, a fold left unbounded would end too.
    const reference = await DuckDBInstance.create(':memory:')
    const referenceConnection = await reference.connect()
    const fold = "SELECT levenshtein(repeat('a', 30000), repeat('b', 30000)) AS distance"
    const done: string[] = []
    const sql = analysis.sql([opened.id], fold).then(
      () => done.push('sql answered'),
      (error: unknown) => done.push(error instanceof Error ? error.message : 'failed'),
    )
    const pivot = analysis
      .pivot(
        opened.id,
        {
          rows: ['publisher'],
          columns: [],
          values: [{ field: 'revenue', aggregate: 'sum' }],
          sort: { by: 'label', direction: 'asc' },
          top: null,
          subtotals: false,
          showChange: false,
        },
        [],
      )
      .then(() => done.push('pivot'))
    const unbounded = referenceConnection.run(fold).then(() => done.push('reference fold'))
    await Promise.all([sql, pivot, unbounded])
    referenceConnection.closeSync()
    reference.closeSync()
    expect(done.slice(0, 2).sort()).toEqual(
      ['pivot', 'The query ran longer than 1 seconds and was stopped; narrow it (fewer columns, a filter, a LIMIT) and run it again.'].sort(),
    )
    expect(done[2]).toBe('reference fold')
  })
})

describe('the files open at once are capped and the same file has one id', () => {
  it('the same export job, or the same file by another path, gives the id already open', async () => {
    const exported = file('export.csv', SALES)
    const link = path.join(folder, 'link.csv')
    symlinkSync(exported, link)
    analysis = createAnalysis({ exportFile: async () => exported })
    const first = await analysis.openExport('job-1')
    const again = await Promise.all([analysis.openExport('job-1'), analysis.openExport('job-1'), analysis.open(link)])
    expect(again.map((opened) => opened.id)).toEqual([first.id, first.id, first.id])
    expect(analysis.files()).toHaveLength(1)
  })

  it('past the cap a file is refused with a sentence, and closing one makes room', async () => {
    analysis = createAnalysis({ openedFiles: createOpenedFiles({ maxOpenFiles: 2 }) })
    const one = await analysis.open(file('one.csv', SALES))
    await analysis.open(file('two.csv', SALES))
    await expect(analysis.open(file('three.csv', SALES))).rejects.toThrow(
      'At most 2 files can be open for analysis at once; close one you no longer need, then open this one again.',
    )
    await analysis.close(one.id)
    expect((await analysis.open(file('three.csv', SALES))).name).toBe('three.csv')
  })
})
