import { strToU8, zipSync } from 'fflate'
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { useCliDemo } from '../../support/cli-demo'
import { expectFailure, ownLines, type CliRun } from './support'

/** `entities import --dry-run` against the demo backend, in-process: the plan as JSON lines, exit 0 or 4, nothing sent. */

const demo = useCliDemo('import')
const cli = (argv: string[]): Promise<CliRun> => demo.cli(argv)

async function file(name: string, text: string | Uint8Array): Promise<string> {
  const full = path.join(demo.work, name)
  await writeFile(full, text)
  return full
}

interface Brand {
  id: number
  name: string
  is_open_auction_allowed: boolean
  is_pmp_allowed: boolean
  external_id: string
}
const brand = async (id: number): Promise<Brand> => JSON.parse((await cli(['entities', 'get', 'brands', String(id), '--profile', 'Demo'])).stdout) as Brand
const brandCount = async (): Promise<number> => (JSON.parse((await cli(['entities', 'list', 'brands', '--profile', 'Demo'])).stdout) as unknown[]).length
const lines = (run: CliRun): Array<Record<string, unknown>> =>
  run.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>)

describe('entities import --dry-run', () => {
  it('prints one JSON line per row (update, unchanged, create), exits 0, and sends nothing', async () => {
    const [first, second] = [await brand(1), await brand(2)]
    const before = await brandCount()
    const row = (entity: Brand, name: string): string =>
      `${entity.external_id};"${name.replaceAll('"', '""')}";${entity.is_open_auction_allowed};${entity.is_pmp_allowed}`
    const csv = await file(
      'clean.csv',
      `\uFEFFexternal_id;name;is_open_auction_allowed;is_pmp_allowed\n${row(first, 'Renamed by import')}\n${row(second, second.name)}\nNEW-1;Newco;yes;no\n`,
    )
    const run = await cli(['entities', 'import', 'brands', csv, '--dry-run', '--profile', 'Demo'])
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(lines(run)).toEqual([
      { row: 2, action: 'update', id: 1, changes: { name: [first.name, 'Renamed by import'] } },
      { row: 3, action: 'unchanged', id: 2, changes: {} },
      {
        row: 4,
        action: 'create',
        id: null,
        changes: { external_id: [null, 'NEW-1'], name: [null, 'Newco'], is_open_auction_allowed: [null, true], is_pmp_allowed: [null, false] },
      },
    ])
    expect((await brand(1)).name).toBe(first.name)
    expect(await brandCount()).toBe(before)
  })

  it('exits 4 when some rows have errors, each error with its row, column and reason', async () => {
    const csv = await file('errors.csv', 'id,name\n1,=HYPERLINK("x")\n2,Fine name\n2,Twice\n999999,Nobody\n')
    const run = await cli(['entities', 'import', 'brands', csv, '--dry-run', '--profile', 'Demo'])
    expect(run.code).toBe(4)
    expect(run.stderr).toBe('')
    const planned = lines(run)
    expect(planned.map((line) => line.action)).toEqual(['error', 'error', 'error', 'error'])
    expect(planned[0]).toMatchObject({ row: 2, id: 1, errors: [{ row: 2, column: 'name', reason: expect.stringContaining('like a spreadsheet formula') }] })
    expect(planned[1]).toMatchObject({ errors: [{ column: null, reason: expect.stringContaining('id "2" is in rows 3, 4') }] })
    expect(planned[3]).toMatchObject({ errors: [{ column: 'id', reason: 'No brand has id 999999; leave the id empty to create a new one.' }] })
  })

  it('unknown columns are said on stderr and make the plan not clean (exit 4)', async () => {
    const csv = await file('unknown.tsv', 'external_id\tname\tcolour\nBRD-000001\tX\tred\n')
    const run = await cli(['entities', 'import', 'brands', csv, '--dry-run', '--profile', 'Demo'])
    expect(run.code).toBe(4)
    expect(ownLines(run.stderr)).toEqual([expect.stringMatching(/^adops-desk: Column "colour" matches no field of brands/)])
    expect(lines(run)).toHaveLength(1)
  })

  it('reads an XLSX workbook from its first sheet', async () => {
    const cell = (reference: string, text: string): string => `<c r="${reference}" t="inlineStr"><is><t>${text}</t></is></c>`
    const sheet = `<worksheet><sheetData><row r="1">${cell('A1', 'external_id')}${cell('B1', 'name')}</row><row r="2">${cell('A2', 'BRD-000003')}${cell('B2', 'From a workbook')}</row></sheetData></worksheet>`
    const xlsx = await file('brands.xlsx', zipSync({ 'xl/worksheets/sheet1.xml': strToU8(sheet) }))
    const run = await cli(['entities', 'import', 'brands', xlsx, '--dry-run', '--profile', 'Demo'])
    expect(run.code).toBe(0)
    expect(lines(run)).toEqual([{ row: 2, action: 'update', id: 3, changes: { name: [(await brand(3)).name, 'From a workbook'] } }])
  })

  it('--help shows the switches without a value and exit code 4', async () => {
    const help = (await cli(['entities', 'import', '--help'])).stdout
    expect(help).toMatch(/^ {2}--dry-run {2,}print the plan/m)
    expect(help).toContain('4 some rows had errors')
  })

  it('refuses --dry-run with --apply, a run with neither, a bad --match and a missing file as usage errors', async () => {
    const csv = await file('any.csv', 'external_id,name\nBRD-000001,X\n')
    expectFailure(await cli(['entities', 'import', 'brands', csv, '--apply', '--dry-run', '--profile', 'Demo']), 2, /either --dry-run or --apply, not both/)
    expectFailure(await cli(['entities', 'import', 'brands', csv, '--profile', 'Demo']), 2, /Say --dry-run/)
    expectFailure(await cli(['entities', 'import', 'brands', csv, '--dry-run', '--match', 'name', '--profile', 'Demo']), 2, /--match must be id or external_id/)
    expectFailure(
      await cli(['entities', 'import', 'brands', path.join(demo.work, 'nope.csv'), '--dry-run', '--profile', 'Demo']),
      2,
      /Cannot read the file .*nope\.csv \(ENOENT\)/,
    )
    expectFailure(await cli(['entities', 'import', 'widgets', csv, '--dry-run', '--profile', 'Demo']), 2, /not a kind import knows/)
  })
})
