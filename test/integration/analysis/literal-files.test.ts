import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createAnalysis, type Analysis } from '../../../main/services/analysis/analysis'
import { loadEngine } from '../../../main/services/analysis/engine'
import { globLiteral, literalPattern } from '../../../main/services/analysis/table-load'

/**
 * The file the user chose is the file read (issue 38, item 9): DuckDB reads a path as a glob
 * pattern, so a file named `*.csv` read every csv beside it, and `r[0-9].csv` read `r5.csv`.
 * And the SQL box shows no absolute path of this machine through the engine's settings (item 17).
 */

let folder: string
let analysis: Analysis

const write = (name: string, rows: string): string => {
  const filePath = path.join(folder, name)
  writeFileSync(filePath, `label\n${rows}\n`)
  return filePath
}

beforeAll(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'analysis-literal-'))
  write('r5.csv', 'OTHER-FILE')
  write('secret.csv', 'TOPSECRET')
})
afterAll(() => rmSync(folder, { recursive: true, force: true }))
afterEach(() => analysis?.dispose())

async function labelsOf(filePath: string): Promise<unknown[]> {
  analysis = createAnalysis()
  const opened = await analysis.open(filePath)
  return (await analysis.sql([opened.id], `SELECT label FROM ${opened.table} ORDER BY label`)).rows.flat()
}

// Windows refuses `*` and `?` in file names: there no such file can be chosen.
describe.skipIf(process.platform === 'win32')('a chosen file is read as itself, never as a pattern', () => {
  it.each([
    ['*.csv', 'mine-star'],
    ['r[0-9].csv', 'mine-bracket'],
    ['r?.csv', 'mine-question'],
  ])('%s reads only its own rows', async (name, label) => {
    expect(await labelsOf(write(name, label))).toEqual([label])
  })

  it('a folder whose name holds pattern characters is read literally too', async () => {
    const inner = path.join(folder, 'd[1]')
    mkdirSync(inner, { recursive: true })
    mkdirSync(path.join(folder, 'd1'), { recursive: true })
    writeFileSync(path.join(folder, 'd1', 'a.csv'), 'label\nWRONG-FOLDER\n')
    writeFileSync(path.join(inner, 'a.csv'), 'label\nright-folder\n')
    expect(await labelsOf(path.join(inner, 'a.csv'))).toEqual(['right-folder'])
  })
})

describe('the literal pattern', () => {
  it('makes each pattern character a class of its own, and a file gone by then is said so', async () => {
    expect(globLiteral('/data/r[0-9]*.csv?')).toBe('/data/r[[]0-9][*].csv[?]')
    const { DuckDBInstance } = await loadEngine()
    const instance = await DuckDBInstance.create(':memory:')
    const connection = await instance.connect()
    try {
      await expect(literalPattern(connection, path.join(folder, 'gone[1].csv'))).rejects.toThrow(
        'gone[1].csv could not be read; check that it still exists and that you may read it.',
      )
    } finally {
      connection.closeSync()
      instance.closeSync()
    }
  })
})

describe('the SQL box answers no path of this machine', () => {
  it('duckdb_settings() holds no absolute path and not the home folder', async () => {
    analysis = createAnalysis()
    const opened = await analysis.open(write('plain.csv', 'x'))
    const settings = await analysis.sql([opened.id], 'SELECT name, value FROM duckdb_settings()', { rowCap: 10_000 })
    expect(settings.rows.length).toBeGreaterThan(50)
    const withPaths = settings.rows.filter(([, value]) => typeof value === 'string' && (/^([/\\~]|[A-Za-z]:[/\\])/.test(value) || value.includes(homedir())))
    expect(withPaths).toEqual([])
  })
})
