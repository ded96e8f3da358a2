import { describe, expect, it } from 'vitest'
import type { Entity, EntityKindSpec } from '@contract'
import { kindSpec } from '../../../main/services/entities/kinds'
import { planImport, type PlanInput } from '../../../main/services/bulk/plan'
import { readImportTable } from '../../../main/services/bulk/read-table'

function spec(kind: string): EntityKindSpec {
  const found = kindSpec(kind)
  if (found === undefined) throw new Error(`no spec for ${kind}`)
  return found
}

const brands: Entity[] = [
  { id: 1, name: 'Acme', is_open_auction_allowed: true, is_pmp_allowed: false, advertiser_domains: ['acme.com'], external_id: 'B-1' },
  { id: 2, name: 'Beta', is_open_auction_allowed: false, is_pmp_allowed: false, advertiser_domains: [], external_id: 'B-2' },
  { id: 3, name: 'Gamma', is_open_auction_allowed: true, is_pmp_allowed: true, advertiser_domains: ['gamma.io'], external_id: 'B-3' },
]

async function* once(text: string): AsyncGenerator<string> {
  yield text
}

async function plan(text: string, options: Partial<PlanInput> = {}) {
  const table = await readImportTable(once(text))
  return planImport({ spec: spec('brands'), table, existing: brands, ...options })
}

describe('matching rows to the mirror', () => {
  it('matches by id when the file has an id column: update, unchanged, create, and a missing id is an error', async () => {
    const result = await plan('id,name,external_id\n1,Acme Corp,B-1\n2,Beta,B-2\n,Delta,B-9\n77,Ghost,\n', {
      existing: brands,
    })
    expect(result.match).toBe('id')
    expect(result.rows.map((row) => [row.row, row.action, row.id])).toEqual([
      [2, 'update', 1],
      [3, 'unchanged', 2],
      [4, 'error', null],
      [5, 'error', null],
    ])
    // Delta cannot be created: the brand needs its two booleans, and the file has no column for them.
    expect(result.rows[2]?.errors.map((error) => error.reason)).toEqual([
      'The file has no Open auction allowed (is_open_auction_allowed) column, which a new brand needs.',
      'The file has no Private marketplace allowed (is_pmp_allowed) column, which a new brand needs.',
    ])
    expect(result.rows[3]?.errors).toEqual([{ row: 5, column: 'id', reason: 'No brand has id 77; leave the id empty to create a new one.' }])
    expect(result.counts).toEqual({ create: 0, update: 1, delete: 0, unchanged: 1, error: 2 })
  })

  it('matches by external_id when there is no id column; no match is a create with the new entity to send', async () => {
    const result = await plan('External ID,Name,Open auction allowed,is_pmp_allowed\nB-3,Gamma,no,yes\nB-10,Newco,1,0\n')
    expect(result.match).toBe('external_id')
    expect(result.columns.map((column) => column.field)).toEqual(['external_id', 'name', 'is_open_auction_allowed', 'is_pmp_allowed'])
    expect(result.rows[0]).toMatchObject({ action: 'update', id: 3, changes: { is_open_auction_allowed: [true, false] } })
    // The lost-update guard's reference: the entity as the plan saw it.
    expect(result.rows[0]?.before).toMatchObject({ id: 3, is_open_auction_allowed: true })
    expect(result.rows[1]).toEqual({
      row: 3,
      action: 'create',
      id: null,
      changes: { external_id: [null, 'B-10'], name: [null, 'Newco'], is_open_auction_allowed: [null, true], is_pmp_allowed: [null, false] },
      entity: { external_id: 'B-10', name: 'Newco', is_open_auction_allowed: true, is_pmp_allowed: false },
      before: null,
      errors: [],
    })
  })

  it('keeps the whole merged entity of an update (an update sends it all) and diffs only what changed', async () => {
    const result = await plan('external_id,advertiser_domains\nB-1,acme.com;shop.acme.com\n')
    const [row] = result.rows
    expect(row?.changes).toEqual({ advertiser_domains: [['acme.com'], ['acme.com', 'shop.acme.com']] })
    expect(row?.entity).toEqual({ ...brands[0], advertiser_domains: ['acme.com', 'shop.acme.com'] })
  })

  it('an id in the file must agree with the external_id match when matching by external_id', async () => {
    const result = await plan('id,external_id,name\n2,B-1,X\n5,B-new,Y\n', { match: 'external_id' })
    expect(result.rows.map((row) => row.errors[0]?.reason)).toEqual([
      'id 2 is not the id of the brand with external_id "B-1" (1); correct or clear it.',
      'id 5 is given for a new brand; the platform gives ids, so leave it empty.',
    ])
  })

  it('a create whose external_id already exists is refused before it meets a 409', async () => {
    const result = await plan('id,external_id,name,is_open_auction_allowed,is_pmp_allowed\n,B-2,Again,true,true\n')
    expect(result.rows[0]?.errors[0]).toEqual({
      row: 2,
      column: 'external_id',
      reason: 'external_id "B-2" is already brand 2; put 2 in the id column to update it.',
    })
  })

  it('matching by a key the file has no column for is a problem of the file', async () => {
    const result = await plan('name\nAcme\n', { match: 'id' })
    expect(result.problems).toEqual(['Matching by id needs an id column; add one, or match by external_id.'])
  })
})

describe('bad input, each with a sentence on its row (or the file)', () => {
  it('duplicate keys inside the file are errors on every duplicate row', async () => {
    const result = await plan('external_id,name\nB-1,One\nB-2,Beta\nB-1,Three\n')
    expect(result.rows.map((row) => row.action)).toEqual(['error', 'unchanged', 'error'])
    for (const row of [result.rows[0], result.rows[2]]) {
      expect(row?.errors[0]?.reason).toBe('external_id "B-1" is in rows 2, 4: a file may name each entity once, so keep one of these rows.')
    }
    const ids = await plan('id,name\n3,A\n3,B\n')
    expect(ids.counts.error).toBe(2)
  })

  it('unknown columns are reported, and a mapping can leave one out or point it at a field', async () => {
    const result = await plan('external_id,Name,Notes\nB-1,Acme,hello\n')
    expect(result.unknownColumns).toEqual(['Notes'])
    expect(result.problems).toEqual([
      expect.stringMatching(/^Column "Notes" matches no field of brands \(ID, Name, .*\): rename it to one of them, or leave it out of the import\.$/),
    ])
    const left = await plan('external_id,Name,Notes\nB-1,Acme,hello\n', { mapping: { Notes: null } })
    expect(left.problems).toEqual([])
    const mapped = await plan('external_id,Title\nB-1,Acme 2\n', { mapping: { Title: 'name' } })
    expect(mapped.rows[0]?.changes).toEqual({ name: ['Acme', 'Acme 2'] })
    const twice = await plan('external_id,name,Name\nB-1,a,b\n')
    expect(twice.problems).toEqual(['Columns "name" and "Name" both fill Name; keep one of them.'])
  })

  it('wrong types name the row, the column and what is expected', async () => {
    const result = await plan('external_id,is_pmp_allowed,advertiser_domains\nB-1,maybe,http://acme.com/x\n')
    expect(result.rows[0]?.errors).toEqual([
      { row: 2, column: 'is_pmp_allowed', reason: 'is_pmp_allowed: "maybe" is not true or false (also 1/0, yes/no).' },
      {
        row: 2,
        column: 'advertiser_domains',
        reason: 'advertiser_domains: "http://acme.com/x": Enter the domain only, without http:// or a path (e.g. example.com).',
      },
    ])
    const units = await readImportTable(once('name,publisher,external_id\nTop,abc,U-1\nSide,4,U-2\n'))
    const unitPlan = planImport({ spec: spec('ad_units'), table: units, existing: [] })
    expect(unitPlan.rows[0]?.errors[0]?.reason).toBe('publisher: "abc" is not the id of one of publishers.')
    expect(unitPlan.rows[1]).toMatchObject({ action: 'create', entity: { name: 'Side', publisher: 4, external_id: 'U-2' } })
  })

  it('lists take ; or a JSON array; booleans take true/false, 1/0, yes/no', async () => {
    const result = await plan('external_id,advertiser_domains,is_open_auction_allowed\nB-2,"[""b.com"", ""c.com""]",YES\nB-3,gamma.io; ,False\n')
    expect(result.rows[0]?.changes).toEqual({ advertiser_domains: [[], ['b.com', 'c.com']], is_open_auction_allowed: [false, true] })
    expect(result.rows[1]?.changes).toEqual({ is_open_auction_allowed: [true, false] })
  })

  it('an empty cell keeps an optional field in an update, and is an error on a required one', async () => {
    const result = await plan('external_id,advertiser_domains,name\nB-1,,Acme\nB-2,x.com,\n')
    expect(result.rows[0]?.action).toBe('unchanged')
    expect(result.rows[1]?.errors).toEqual([
      { row: 3, column: 'name', reason: 'name is required, so an empty cell cannot clear it; write its value, or leave the column out to keep it.' },
    ])
  })

  it('formula-looking cells are errors, never sent; a negative number in a number field is a number', async () => {
    const result = await plan('external_id,name\nB-1,=HYPERLINK("http://x")\nB-2,+1\nB-3, @SUM(A1)\n')
    expect(result.counts.error).toBe(3)
    expect(result.rows[0]?.errors[0]?.reason).toBe(
      'name: "=HYPERLINK("http://x")" starts with = like a spreadsheet formula; formulas are never imported, so write the value itself.',
    )
    expect(result.rows.every((row) => row.entity === null)).toBe(true)
  })

  it('a ragged row is an error of its own; the others are planned', async () => {
    const result = await plan('external_id,name\nB-1,Acme,extra\nB-2,Beta 2\n')
    expect(result.rows[0]?.errors[0]?.reason).toBe('The row has 3 cells but the header has 2 columns; check its quotes and separators.')
    expect(result.rows[1]?.action).toBe('update')
  })

  it('a BOM, ; separators and a quoted line break come through to the plan', async () => {
    const result = await plan('\uFEFFexternal_id;name\r\nB-1;"Acme\nCorp"\r\n')
    expect(result.rows[0]?.changes).toEqual({ name: ['Acme', 'Acme\nCorp'] })
  })
})

describe('a 100,000-row file against a 100,000-entity mirror', () => {
  it('plans every row, each against the index (no per-row scan of the mirror)', async () => {
    const mirror: Entity[] = Array.from({ length: 100_000 }, (_, index) => ({
      id: index + 1,
      name: `Brand ${index}`,
      is_open_auction_allowed: true,
      is_pmp_allowed: false,
      external_id: `B-${index}`,
    }))
    // Count how often the mirror is walked: once to index it, whatever the number of rows.
    let walks = 0
    const existing: Iterable<Entity> = {
      [Symbol.iterator]: () => {
        walks++
        return mirror[Symbol.iterator]()
      },
    }
    const body = Array.from({ length: 100_000 }, (_, index) => `B-${index},Brand ${index % 2 === 0 ? index : `${index} new`},yes,no\n`).join('')
    const table = await readImportTable(once(`external_id,name,is_open_auction_allowed,is_pmp_allowed\n${body}`))
    const result = planImport({ spec: spec('brands'), table, existing })
    expect(walks).toBe(1)
    expect(result.counts).toEqual({ create: 0, update: 50_000, delete: 0, unchanged: 50_000, error: 0 })
    expect(result.rows).toHaveLength(100_000)
  })
})
