import { spawn } from 'node:child_process'
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Entity } from '@contract'
import { startSandbox, type Sandbox } from '../../../main/sandbox'
import type { ChangeRecord } from '../../../main/services/bulk/apply-types'
import { changesFolder, createChangeLog } from '../../../main/services/changes/change-log'
import { freshBuild } from '../../support/child-process'

/**
 * `entities import --apply` killed with SIGKILL half-way (no handler runs, a line may be torn)
 * and run again on the same file: the second run resumes the journal, every row ends applied
 * exactly once, and no create is made twice (counted by external_id on the backend).
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..')

let sandbox: Sandbox
let userData: string
let work: string

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 })
  userData = await mkdtemp(path.join(os.tmpdir(), 'adops-kill-user-'))
  work = await mkdtemp(path.join(os.tmpdir(), 'adops-kill-work-'))
})
afterAll(async () => {
  await sandbox.close()
  await rm(userData, { recursive: true, force: true })
  await rm(work, { recursive: true, force: true })
})

const UPDATES = 100
const CREATES = 40

function start(file: string, onLine?: (count: number) => void) {
  const { info } = sandbox
  const flags = ['--base-url', info.base_url, '--auth-url', info.auth_url, '--report-url', info.report_url, '--service-id', 'demo', '--username', 'demo']
  // The built command line (what `npm run cli` starts): no TypeScript loader compiling the sources at each start.
  const child = spawn(process.execPath, [freshBuild('out/cli/index.js'), 'entities', 'import', 'brands', file, '--apply', ...flags], {
    cwd: root,
    env: { ...process.env, ADOPS_USER_DATA: userData, ADOPS_KEYCHAIN_SERVICE: 'AdOps Desk kill test', ADOPS_PASSWORD: 'demo' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString()
    onLine?.(stdout.split('\n').length - 1)
  })
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve))
  return { child, exited, output: () => ({ stdout, stderr }) }
}

async function brands(): Promise<Entity[]> {
  const token = await fetch(`${sandbox.info.auth_url}/oauth2/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username: 'demo', password: 'demo', scope: 'service_id=demo' }),
  }).then((response) => response.json() as Promise<{ access_token: string }>)
  const response = await fetch(`${sandbox.info.base_url}/brands/?page_size=1000`, { headers: { authorization: `Bearer ${token.access_token}` } })
  return ((await response.json()) as { results: Entity[] }).results
}

describe('an apply killed half-way and run again', () => {
  it('applies every row exactly once, with no duplicate creates', async () => {
    const existing = (await brands()).slice(0, UPDATES)
    const rows = [
      ...existing.map((entity) => `${String(entity.external_id)},"${String(entity.name).replaceAll('"', '""')} (killed)",yes,no`),
      ...Array.from({ length: CREATES }, (_, index) => `KILL-${index + 1},Created ${index + 1},no,yes`),
    ]
    const file = path.join(work, 'brands.csv')
    await writeFile(file, `external_id,name,is_open_auction_allowed,is_pmp_allowed\n${rows.join('\n')}\n`)
    // Each request takes a while, so the kill lands with rows still to send.
    sandbox.setFaults({ latency_ms: 25 })

    let killed = false
    const first = start(file, (count) => {
      if (count >= 30 && !killed) {
        killed = true
        first.child.kill('SIGKILL')
      }
    })
    expect(await first.exited).toBe(null)
    const printed = first
      .output()
      .stdout.split('\n')
      .filter((line) => line !== '').length
    expect(printed).toBeLessThan(UPDATES + CREATES)
    expect(await readdir(path.join(userData, 'bulk-journals'))).toHaveLength(1)

    sandbox.setFaults({ latency_ms: 0 })
    const second = start(file)
    const code = await second.exited
    expect(second.output().stderr).toMatch(/Resuming the interrupted apply of this file/)
    expect(
      second
        .output()
        .stdout.split('\n')
        .filter((line) => line !== '' && !line.includes('"status":"applied"')),
    ).toEqual([])
    expect(code).toBe(0)

    const after = await brands()
    for (let index = 1; index <= CREATES; index += 1) {
      expect(after.filter((entity) => entity.external_id === `KILL-${index}`)).toHaveLength(1)
    }
    const byId = new Map(after.map((entity) => [String(entity.id), entity]))
    for (const entity of existing) expect(byId.get(String(entity.id))?.name).toBe(`${String(entity.name)} (killed)`)

    // The change log holds each row's write once: no row was sent twice.
    const profiles = (await readdir(changesFolder(userData))).map((name) => decodeURIComponent(name.replace(/\.jsonl$/, '')))
    expect(profiles).toHaveLength(1)
    const { records } = await createChangeLog({ folder: changesFolder(userData) }).list(profiles[0] as string, { limit: 10_000 })
    const applied = records.filter((record: ChangeRecord) => record.outcome === 'applied')
    expect(applied).toHaveLength(UPDATES + CREATES)
    expect(new Set(applied.map((record) => String(record.id))).size).toBe(UPDATES + CREATES)
    expect(await readdir(path.join(userData, 'bulk-journals', profiles[0] as string))).toEqual([])
  })
})
