import { describe, expect, it } from 'vitest'
import { useCliDemo } from '../../support/cli-demo'
import { ownLines, type CliRun } from './support'

/**
 * `entities create`, `update` and `delete` go through the app's entity service, so each single
 * write from the command line is in the connection's change log ("changes list"), as the README
 * says of every write made here.
 */
const demo = useCliDemo('single-writes')
const cli = (argv: string[], stdin?: string): Promise<CliRun> => demo.cli(argv, stdin === undefined ? {} : { stdin })
const records = async (): Promise<Array<Record<string, unknown>>> =>
  (await cli(['changes', 'list', '--profile', 'Demo'])).stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>)

describe('single writes from the command line', () => {
  it('records a create, an update and a delete in the change log', async () => {
    const created = await cli(
      ['entities', 'create', 'brands', '--data', '-', '--profile', 'Demo'],
      JSON.stringify({ name: 'Made by a single CLI write', is_open_auction_allowed: true, is_pmp_allowed: false }),
    )
    expect(ownLines(created.stderr)).toEqual([])
    expect(created.code).toBe(0)
    const entity = JSON.parse(created.stdout) as Record<string, unknown>
    const id = entity.id as number
    expect(await records()).toEqual([expect.objectContaining({ kind: 'brands', id, before: null, outcome: 'applied', source: 'single' })])

    const updated = await cli(
      ['entities', 'update', 'brands', String(id), '--data', '-', '--profile', 'Demo'],
      JSON.stringify({ ...entity, name: 'Renamed by the CLI' }),
    )
    expect(updated.code).toBe(0)
    expect(JSON.parse(updated.stdout)).toEqual({ kind: 'brands', id, updated: true })
    const removed = await cli(['entities', 'delete', 'brands', String(id), '--profile', 'Demo'])
    expect(removed.code).toBe(0)

    const log = await records()
    expect(log).toHaveLength(3)
    expect(log).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id,
          before: expect.objectContaining({ name: 'Made by a single CLI write' }),
          after: expect.objectContaining({ name: 'Renamed by the CLI' }),
        }),
        expect.objectContaining({ id, before: expect.objectContaining({ name: 'Renamed by the CLI' }), after: null, outcome: 'applied' }),
      ]),
    )
  })

  it('records a write the platform refused, with its reason', async () => {
    const before = (await records()).length
    const refused = await cli(['entities', 'delete', 'brands', '999999', '--profile', 'Demo'])
    expect(refused.code).not.toBe(0)
    const log = await records()
    expect(log).toHaveLength(before + 1)
    expect(log).toEqual(expect.arrayContaining([expect.objectContaining({ id: 999999, after: null, outcome: 'failed' })]))
  })
})
