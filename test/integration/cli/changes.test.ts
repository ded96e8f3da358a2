import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { useCliDemo } from '../../support/cli-demo'
import { ownLines, type CliRun } from './support'

/** `entities import --apply`, `changes list` and `changes revert` in-process against the demo backend. */

const demo = useCliDemo('changes')
const cli = (argv: string[]): Promise<CliRun> => demo.cli(argv)
const lines = (run: CliRun): Array<Record<string, unknown>> =>
  run.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
const brand = async (id: number): Promise<Record<string, unknown>> =>
  JSON.parse((await cli(['entities', 'get', 'brands', String(id), '--profile', 'Demo'])).stdout) as Record<string, unknown>

describe('entities import --apply and the change log', () => {
  it('applies an import (exit 4 for the error row), lists the changes, and reverts the batch', async () => {
    const original = await brand(5)
    const csv = path.join(demo.work, 'apply.csv')
    await writeFile(
      csv,
      `external_id,name,is_open_auction_allowed,is_pmp_allowed\n${String(original.external_id)},Applied name,true,false\nCLI-NEW-1,Made by CLI,no,no\nCLI-BAD,,yes,no\n`,
    )
    const run = await cli(['entities', 'import', 'brands', csv, '--apply', '--profile', 'Demo'])
    expect(ownLines(run.stderr)).toEqual([])
    expect(run.code).toBe(4)
    const outcomes = lines(run).sort((first, second) => Number(first.row) - Number(second.row))
    expect(outcomes.map((line) => [line.row, line.action, line.status])).toEqual([
      [2, 'update', 'applied'],
      [3, 'create', 'applied'],
      [4, 'error', 'skipped'],
    ])
    expect(outcomes[0]).toMatchObject({ id: 5, changes: { name: [original.name, 'Applied name'] } })
    const createdId = outcomes[1]?.id as number
    expect((await brand(5)).name).toBe('Applied name')

    const listed = await cli(['changes', 'list', '--profile', 'Demo'])
    expect(listed.code).toBe(0)
    const records = lines(listed)
    expect(records).toHaveLength(2)
    expect(Object.keys(records[0] ?? {})).toEqual(expect.arrayContaining(['change', 'batch', 'at', 'kind', 'id', 'before', 'after', 'outcome']))
    expect(new Set(records.map((record) => record.batch)).size).toBe(1)
    const csvRun = await cli(['changes', 'list', '--format', 'csv', '--since', '2000-01-01', '--profile', 'Demo'])
    expect(csvRun.stdout.split('\r\n')[0]).toBe('change,batch,source,title,at,kind,id,outcome,reason,before,after')
    expect((await cli(['changes', 'list', '--since', '2999-01-01', '--profile', 'Demo'])).stdout).toBe('')

    const batch = String(records[0]?.batch)
    const dry = await cli(['changes', 'revert', '--batch', batch, '--dry-run', '--profile', 'Demo'])
    expect(dry.code).toBe(0)
    expect(lines(dry).map((line) => [line.action, line.id])).toEqual(
      expect.arrayContaining([
        ['update', 5],
        ['delete', createdId],
      ]),
    )
    const reverted = await cli(['changes', 'revert', '--batch', batch, '--apply', '--profile', 'Demo'])
    expect(reverted.code).toBe(0)
    expect(lines(reverted).every((line) => line.status === 'applied')).toBe(true)
    expect((await brand(5)).name).toBe(original.name)
    expect((await cli(['entities', 'get', 'brands', String(createdId), '--profile', 'Demo'])).code).toBe(1)
    // The revert is recorded too: two more changes, in a batch of their own.
    expect(lines(await cli(['changes', 'list', '--profile', 'Demo']))).toHaveLength(4)
  })

  it('a revert of an update whose entity changed since is a conflict (exit 4), nothing overwritten', async () => {
    const csv = path.join(demo.work, 'guard.csv')
    await writeFile(csv, 'id,name\n6,First by CLI\n')
    expect((await cli(['entities', 'import', 'brands', csv, '--apply', '--profile', 'Demo'])).code).toBe(0)
    const change = String(lines(await cli(['changes', 'list', '--profile', 'Demo']))[0]?.change)
    await writeFile(csv, 'id,name\n6,Second by CLI\n')
    expect((await cli(['entities', 'import', 'brands', csv, '--apply', '--profile', 'Demo'])).code).toBe(0)
    const run = await cli(['changes', 'revert', change, '--apply', '--profile', 'Demo'])
    expect(run.code).toBe(4)
    expect(lines(run)).toEqual([expect.objectContaining({ action: 'conflict', status: 'conflict', reason: expect.stringContaining('(name)') })])
    expect((await brand(6)).name).toBe('Second by CLI')
  })

  it('a revert of a create the platform refuses to delete (406) names the dependents in its line and on stderr (exit 4)', async () => {
    const csv = path.join(demo.work, 'dependents.csv')
    await writeFile(csv, 'external_id,name,is_open_auction_allowed,is_pmp_allowed\nCLI-DEP-1,Used by an agency,true,false\n')
    const imported = await cli(['entities', 'import', 'brands', csv, '--apply', '--profile', 'Demo'])
    expect(imported.code).toBe(0)
    const brandId = lines(imported)[0]?.id as number
    const data = path.join(demo.work, 'agency.json')
    await writeFile(data, JSON.stringify({ name: 'Agency of CLI-DEP-1', brands: [brandId] }))
    const agency = await cli(['entities', 'create', 'agencies', '--data', data, '--profile', 'Demo'])
    expect(agency.code).toBe(0)
    const agencyId = (JSON.parse(agency.stdout) as { id: number }).id
    // The agency's create is in the log too (a single write), newer than the import's batch.
    const batch = String(lines(await cli(['changes', 'list', '--profile', 'Demo'])).find((record) => record.kind === 'brands')?.batch)

    const run = await cli(['changes', 'revert', '--batch', batch, '--apply', '--profile', 'Demo'])
    expect(run.code).toBe(4)
    expect(lines(run)).toEqual([
      expect.objectContaining({
        action: 'delete',
        id: brandId,
        status: 'failed',
        reason: expect.stringContaining('“Used by an agency” cannot be deleted because 1 entity depends on it'),
        dependents: [{ kind: 'agencies', id: agencyId, name: 'Agency of CLI-DEP-1' }],
      }),
    ])
    expect(ownLines(run.stderr)).toEqual([
      `adops-desk: row 1: ${brandId} was not deleted: it is used by agencies ${agencyId} “Agency of CLI-DEP-1”. Change or delete it first, then run the command again.`,
    ])
    expect((await brand(brandId)).name).toBe('Used by an agency')
  })

  it('usage: revert needs one change or --batch, and --dry-run or --apply', async () => {
    expect((await cli(['changes', 'revert', '--dry-run', '--profile', 'Demo'])).code).toBe(2)
    expect((await cli(['changes', 'revert', 'x', '--batch', 'y', '--dry-run', '--profile', 'Demo'])).code).toBe(2)
    expect((await cli(['changes', 'revert', 'x', '--profile', 'Demo'])).code).toBe(2)
    expect((await cli(['changes', 'list', '--since', 'yesterday-ish', '--profile', 'Demo'])).code).toBe(2)
    expect((await cli(['changes', 'revert', 'no-such-change', '--dry-run', '--profile', 'Demo'])).code).toBe(1)
  })
})
