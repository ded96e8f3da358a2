import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectFailure, expectSuccess, memoryKeychain, runInProcess, testServices, type CliRun } from '../cli/support'

let work: string
let sales: string
const services = testServices(memoryKeychain())

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'adops-cli-analysis-'))
  sales = path.join(work, 'sales.csv')
  await writeFile(sales, 'publisher,country,revenue\nA,US,10\nA,FR,5\nB,US,30\nC,FR,1\nD,US,2\n')
  await writeFile(path.join(work, 'names.csv'), 'publisher,label\nA,Alpha\nB,Beta\n')
})
afterAll(() => rm(work, { recursive: true, force: true }))

const cli = (argv: string[]): Promise<CliRun> => runInProcess(argv, { services, env: { ADOPS_USER_DATA: work } })

describe('adops-desk pivot', () => {
  it('pivots a file: rows, a column across, sorted by value, top N with Others, as csv', async () => {
    const run = await cli([
      'pivot',
      sales,
      '--rows',
      'publisher',
      '--columns',
      'country',
      '--values',
      'revenue:sum',
      '--sort',
      '-revenue',
      '--top',
      '2',
      '--format',
      'csv',
    ])
    expectSuccess(run)
    expect(run.stdout).toBe(
      ['publisher,FR revenue:sum,US revenue:sum,Total revenue:sum', 'B,,30,30', 'A,5,10,15', 'Others,1,2,3', 'Total,6,42,48', ''].join('\r\n'),
    )
  })

  it('writes json: one object per row, empty cells as null', async () => {
    const run = await cli(['pivot', sales, '--rows', 'country', '--values', 'revenue:max,revenue:count', '--format', 'json'])
    expectSuccess(run)
    expect(JSON.parse(run.stdout)).toEqual([
      { country: 'FR', 'revenue:max': 5, 'revenue:count': 2 },
      { country: 'US', 'revenue:max': 30, 'revenue:count': 3 },
      { country: 'Total', 'revenue:max': 30, 'revenue:count': 5 },
    ])
  })

  it('exits 2 on bad flags, an unknown column, or a file it cannot open', async () => {
    expectFailure(
      await cli(['pivot', sales, '--rows', 'publisher', '--values', 'revenue:median']),
      2,
      /--values: "median" is not one of sum, avg, min, max, count\. See "adops-desk pivot --help"\./,
    )
    expectFailure(await cli(['pivot', sales, '--rows', 'nope', '--values', 'revenue']), 2, /The file has no column "nope"/)
    expectFailure(await cli(['pivot', path.join(work, 'gone.csv'), '--rows', 'a', '--values', 'b']), 2, /gone\.csv could not be read/)
    expectFailure(await cli(['pivot', sales, '--values', 'revenue']), 2, /--rows needs at least one KEY/)
  })

  it('says how to use it', async () => {
    const run = await cli(['pivot', '--help'])
    expectSuccess(run)
    expect(run.stdout).toContain('Usage: adops-desk pivot FILE [options]')
    expect(run.stdout).toContain('--top VALUE')
  })
})

describe('adops-desk sql', () => {
  it('runs one SELECT over several files, each a table named from its file', async () => {
    const run = await cli([
      'sql',
      sales,
      path.join(work, 'names.csv'),
      '--format',
      'csv',
      '--query',
      'SELECT label, sum(revenue) AS revenue FROM sales JOIN names USING (publisher) GROUP BY label ORDER BY label',
    ])
    expectSuccess(run)
    expect(run.stdout).toBe('label,revenue\r\nAlpha,15\r\nBeta,30\r\n')
    const json = await cli(['sql', sales, '--query', 'SELECT count(*) AS n FROM sales'])
    expect(JSON.parse(json.stdout)).toEqual({ columns: ['n'], rows: [[5]], truncated: false, notes: [] })
  })

  it('is locked down like the app: another file on disk is refused, exit 1', async () => {
    expectFailure(await cli(['sql', sales, '--query', "SELECT * FROM read_csv('/etc/passwd')"]), 1, /cannot open other files/)
    expectFailure(await cli(['sql', sales, '--query', 'DELETE FROM sales']), 1, /only reads/)
    expectFailure(await cli(['sql', sales]), 2, /--query needs the SQL to run/)
  })

  it('says how to read another file on the command line, not in the app', async () => {
    const run = await cli(['sql', sales, '--query', "SELECT * FROM read_csv('/etc/passwd')"])
    expectFailure(run, 1, /name it on the command line: adops-desk sql FILE\.\.\. --query SQL/)
    expect(run.stderr).not.toMatch(/Open a file…|in Analysis|in the app/)
  })
})
