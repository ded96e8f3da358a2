import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../../main/sandbox'
import { spawnTsx } from '../../support/child-process'
import { ownLines, sandboxFlags } from './support'

let sandbox: Sandbox
let userData: string

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 })
  userData = await mkdtemp(path.join(os.tmpdir(), 'adops-cli-spawn-'))
})
afterAll(async () => {
  await sandbox.close()
  await rm(userData, { recursive: true, force: true })
})

/** The real entry, the way a scheduled job runs it: `tsx main/cli.ts …` in its own process. */
async function cli(
  argv: string[],
  options: { env?: Record<string, string>; stdin?: string } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnTsx('main/cli.ts', argv, {
    // Never the user's own profiles or keychain entries.
    env: { ADOPS_USER_DATA: userData, ADOPS_KEYCHAIN_SERVICE: 'AdOps Desk spawned CLI tests', ...options.env },
    stdin: options.stdin ?? '',
  })
  const code = await child.exit
  return { code, stdout: child.stdout(), stderr: child.stderr() }
}

const flags = (): string[] => sandboxFlags(sandbox.info)

describe('the command line as a process', () => {
  it('--help exits 0', async () => {
    const run = await cli(['--help'])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('Usage: adops-desk')
  })

  it('profiles list over an empty user-data folder prints []', async () => {
    const run = await cli(['profiles', 'list'])
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toEqual([])
  })

  it('entities list --format csv streams every publisher and exits 0', async () => {
    const run = await cli(['entities', 'list', 'publishers', '--format', 'csv', ...flags()], { env: { ADOPS_PASSWORD: 'demo' } })
    expect(ownLines(run.stderr)).toEqual([])
    expect(run.code).toBe(0)
    const lines = run.stdout.split('\r\n').filter((line) => line !== '')
    expect(lines[0]).toBe('id,name,external_id,url')
    expect(lines).toHaveLength(41)
  })

  it('an API error exits 1 with one line on stderr', async () => {
    const run = await cli(['entities', 'get', 'publishers', '99999999', ...flags()], { env: { ADOPS_PASSWORD: 'demo' } })
    expect(run.code).toBe(1)
    expect(run.stdout).toBe('')
    expect(ownLines(run.stderr)).toEqual([expect.stringMatching(/^adops-desk: Not found: .*\[HTTP 404\]$/)])
  })

  it('a usage error exits 2 with one line on stderr', async () => {
    const run = await cli(['entities', 'list'])
    expect(run.code).toBe(2)
    expect(ownLines(run.stderr)).toEqual([expect.stringMatching(/needs <kind>/)])
  })

  it('entities import --dry-run with row errors prints the plan and exits 4', async () => {
    const file = path.join(userData, 'import.csv')
    await writeFile(file, 'external_id,name\nBRD-000001,=cmd\n')
    const run = await cli(['entities', 'import', 'brands', file, '--dry-run', ...flags()], { env: { ADOPS_PASSWORD: 'demo' } })
    expect(run.code).toBe(4)
    expect(ownLines(run.stderr)).toEqual([])
    expect(JSON.parse(run.stdout)).toMatchObject({ row: 2, action: 'error', id: 1 })
  })

  it('report export reads the request from standard input and writes the file', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'adops-cli-export-'))
    try {
      const out = path.join(folder, 'week.tsv')
      const request = {
        project_name: 'demo',
        slicer_name: 'supply',
        start_date: '-7d',
        end_date: 'yesterday',
        split_by: ['country'],
        export_format: 'tsv',
        data_fields: ['impressions'],
      }
      const run = await cli(['report', 'export', '--request', '-', '--out', out, ...flags()], {
        env: { ADOPS_PASSWORD: 'demo' },
        stdin: JSON.stringify(request),
      })
      expect(ownLines(run.stderr)).toEqual([])
      expect(run.code).toBe(0)
      expect(JSON.parse(run.stdout)).toMatchObject({ path: out })
      expect((await readFile(out, 'utf8')).split('\n')[0]).toBe('country\tcountry Name\timpressions')
    } finally {
      await rm(folder, { recursive: true, force: true })
    }
  })
})
