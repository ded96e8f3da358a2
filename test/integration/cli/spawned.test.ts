import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../../main/sandbox'
import { spawnBuilt } from '../../support/child-process'
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

/** The real entry as `npm run cli` starts it: main/cli.ts built (out/cli/index.js), in its own process. */
async function cli(argv: string[], options: { env?: Record<string, string> } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnBuilt('out/cli/index.js', argv, {
    // Never the user's own profiles or keychain entries.
    env: { ADOPS_USER_DATA: userData, ADOPS_KEYCHAIN_SERVICE: 'AdOps Desk spawned CLI tests', ...options.env },
    stdin: '',
  })
  const code = await child.exit
  return { code, stdout: child.stdout(), stderr: child.stderr() }
}

const flags = (): string[] => sandboxFlags(sandbox.info)

/**
 * One process for what only a process shows: that `main/cli.ts` hands the real environment,
 * arguments and streams to the command line and its answer becomes the exit code (4, not the 0
 * every process ends with anyway). Everything else is proved in-process, where it costs no
 * TypeScript loader per case (about 3.5 CPU s each): the help and exit 0, the empty profile
 * list, csv listing, an API error's exit 1 and its one line, a usage error's exit 2, and a
 * request read from standard input into a written file (commands.test.ts: "for the program and
 * every group and command", "an empty folder has no connections", "list --format csv", "get,
 * create (--data FILE), update (--data -), delete", "usage errors", "export writes the file whole
 * and prints where"; the dry-run plan itself: import.test.ts).
 */
describe('the command line as a process', () => {
  it('entities import --dry-run with row errors prints the plan and exits 4', async () => {
    const file = path.join(userData, 'import.csv')
    await writeFile(file, 'external_id,name\nBRD-000001,=cmd\n')
    const run = await cli(['entities', 'import', 'brands', file, '--dry-run', ...flags()], { env: { ADOPS_PASSWORD: 'demo' } })
    expect(run.code).toBe(4)
    expect(ownLines(run.stderr)).toEqual([])
    expect(JSON.parse(run.stdout)).toMatchObject({ row: 2, action: 'error', id: 1 })
  })
})
