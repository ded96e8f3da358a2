import { createHash } from 'node:crypto'
import { appendFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { JournalHeader } from '../../../main/services/bulk/journal'
import { readImportFile } from '../../../main/services/bulk/import-file'
import { useCliDemo } from '../../support/cli-demo'
import { ownLines, type CliRun } from './support'

/**
 * `entities import --apply` resuming a run killed while it sent a create with no external_id
 * (the review's M6): the create is not sent again, its line is "unknown" with the brand the
 * platform now has under its name, exit 4; `--created ROW=ID` settles it (exit 0).
 */

const demo = useCliDemo('import-unknown')
const cli = (argv: string[]): Promise<CliRun> => demo.cli(argv)
const lines = (run: CliRun): Array<Record<string, unknown>> =>
  run.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
const named = async (name: string): Promise<Array<{ id: number }>> =>
  (JSON.parse((await cli(['entities', 'list', 'brands', '--profile', 'Demo'])).stdout) as Array<{ id: number; name: string }>).filter(
    (brand) => brand.name === name,
  )

/** The journal a run killed right after announcing row 2's create leaves: its header, then `sending`. */
async function killedWhileSending(csv: string): Promise<string> {
  const profiles = JSON.parse(await readFile(path.join(demo.userData, 'profiles.json'), 'utf8')) as { profiles: Array<{ id: string; name: string }> }
  const profileId = profiles.profiles.find((profile) => profile.name === 'Demo')?.id ?? ''
  const { digest } = await readImportFile(csv)
  const entity = { name: 'CLI-LOST-1', is_open_auction_allowed: true, is_pmp_allowed: true }
  const header: JournalHeader = {
    version: 1,
    batch: 'killed-1',
    profileId,
    kind: 'brands',
    source: 'import',
    title: 'Import of lost.csv',
    fingerprint: createHash('sha256').update(`${digest}\nbrands\n`).digest('hex'),
    startedAt: '2026-12-07T09:00:00.000Z',
    rows: [{ row: 2, action: 'create', id: null, changes: { name: [null, entity.name] }, entity, before: null, errors: [] }],
  }
  const folder = path.join(demo.userData, 'bulk-journals', profileId)
  await mkdir(folder, { recursive: true })
  await writeFile(path.join(folder, 'killed-1.jsonl'), `${JSON.stringify(header)}\n`)
  await appendFile(path.join(folder, 'killed-1.jsonl'), `${JSON.stringify({ sending: 2 })}\n`)
  return folder
}

describe('entities import --apply with a create whose outcome is unknown', () => {
  it('reports it unknown with the candidate, sends nothing, exits 4; --created settles it, exit 0', async () => {
    const csv = path.join(demo.work, 'lost.csv')
    await writeFile(csv, 'id,name,is_open_auction_allowed,is_pmp_allowed\n,CLI-LOST-1,true,true\n')
    const folder = await killedWhileSending(csv)
    // The killed run's create reached the platform before it died.
    const made = await demo.cli(['entities', 'create', 'brands', '--data', '-', '--profile', 'Demo'], {
      stdin: JSON.stringify({ name: 'CLI-LOST-1', is_open_auction_allowed: true, is_pmp_allowed: true }),
    })
    expect(made.code).toBe(0)
    const [created] = await named('CLI-LOST-1')
    const createdId = created?.id ?? -1

    const resumed = await cli(['entities', 'import', 'brands', csv, '--apply', '--profile', 'Demo'])
    expect(resumed.code).toBe(4)
    expect(lines(resumed)).toEqual([expect.objectContaining({ row: 2, status: 'unknown', id: null, candidates: [{ id: createdId, name: 'CLI-LOST-1' }] })])
    expect(ownLines(resumed.stderr)).toContainEqual(
      expect.stringMatching(new RegExp(`row 2: .*check the list\\. The platform now has 1 brand of that name: ${createdId}\\..*--created 2=ID`)),
    )
    expect(await named('CLI-LOST-1')).toHaveLength(1)
    expect(await readdir(folder)).toEqual(['killed-1.jsonl'])

    const settled = await cli(['entities', 'import', 'brands', csv, '--apply', '--created', `2=${createdId}`, '--profile', 'Demo'])
    expect(ownLines(settled.stderr).filter((line) => !line.startsWith('adops-desk: Resuming'))).toEqual([])
    expect(settled.code ?? 0).toBe(0)
    expect(lines(settled)).toEqual([expect.objectContaining({ row: 2, status: 'applied', id: createdId })])
    expect(await named('CLI-LOST-1')).toHaveLength(1)
    expect(await readdir(folder)).toEqual([])
  })
})
