import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Board } from '@contract'
import { startSandbox, type Sandbox } from '../../../main/sandbox'
import { boardsFolder, createBoardStore } from '../../../main/services/boards/board-store'
import { createNotices } from '../../../main/services/notices'
import { createPresetStore, presetsFolder } from '../../../main/services/presets/preset-store'
import { demoPreset } from '../alerts/demo-fixtures'
import { memoryKeychain, runInProcess, saveDemoProfile, testServices, type CliRun } from './support'

/** `boards export` against the demo backend: each tile run first, or drawn from what the app keeps (`--kept`). */
const KEYCHAIN_SERVICE = 'adops-desk-test-boards-export'
const keychain = memoryKeychain()
const services = testServices(keychain)

let sandbox: Sandbox
let userData: string
let out: string

const board = (name: string, presets: string[]): Board => ({
  name,
  description: '',
  savedAt: '2026-11-26T08:00:00.000Z',
  overrides: { dates: null, timezone: null },
  tiles: presets.map((preset, index) => ({
    id: `t${index}`,
    title: `${preset} ${index}`,
    source: { kind: 'preset', preset },
    view: index % 2 === 0 ? 'chart' : 'number',
    place: { x: (index % 2) * 6, y: Math.floor(index / 2) * 4, w: 6, h: 4 },
  })),
})

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 })
  userData = await mkdtemp(path.join(os.tmpdir(), 'adops-cli-board-export-'))
  out = path.join(userData, 'out')
  await import('node:fs/promises').then((fs) => fs.mkdir(out))
  const notices = createNotices()
  await saveDemoProfile({ info: sandbox.info, userData, keychain, keychainService: KEYCHAIN_SERVICE, notices })
  await createPresetStore({ folder: presetsFolder(userData), notices }).save({ name: 'Publishers', definition: demoPreset('publisher', 5) }, false)
  const boards = createBoardStore({ folder: boardsFolder(userData), notices })
  await boards.save(board('Demo board', ['Publishers', 'Publishers']), false)
  await boards.save(board('Half board', ['Publishers', 'Gone']), false)
}, 60_000)
afterAll(async () => {
  await sandbox.close()
  await rm(userData, { recursive: true, force: true, maxRetries: 5 })
})

const cli = (argv: string[], env: Record<string, string> = {}): Promise<CliRun> =>
  runInProcess(['boards', 'export', ...argv], { services, env: { ADOPS_USER_DATA: userData, ADOPS_KEYCHAIN_SERVICE: KEYCHAIN_SERVICE, ...env } })

const isPdf = async (file: string) => (await readFile(file)).subarray(0, 5).toString('latin1') === '%PDF-'

describe('boards export', () => {
  it('runs every tile against the connection and writes the PDF: exit 0; then --kept draws the same without running', async () => {
    const file = path.join(out, 'demo.pdf')
    const run = await cli(['Demo board', '--format', 'pdf', '--out', file, '--profile', 'Demo'])
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toMatchObject({ path: file, format: 'pdf', board: 'Demo board', tiles: 2, missing: 0 })
    expect(await isPdf(file)).toBe(true)

    // Every request would fail now: --kept sends none.
    sandbox.setFaults({ fail_rate: 1 })
    const kept = await cli(['Demo board', '--format', 'png', '--out', path.join(out, 'demo.png'), '--profile', 'Demo', '--kept']).finally(() => sandbox.reset())
    expect(kept.stderr).toBe('')
    expect(kept.code).toBe(0)
    expect((await readFile(path.join(out, 'demo.png'))).subarray(1, 4).toString('latin1')).toBe('PNG')
  })

  it('writes the file but exits 4 when a tile has no data, naming it on standard error', async () => {
    const file = path.join(out, 'half.pdf')
    const run = await cli(['Half board', '--format', 'pdf', '--out', file, '--profile', 'Demo'])
    expect(run.code).toBe(4)
    expect(run.stderr).toContain('the tile "Gone 1": The preset “Gone” no longer exists.')
    expect(await isPdf(file)).toBe(true)
  })

  it('exits 2 on usage: an unknown board, a bad format, no --out', async () => {
    const unknown = await cli(['No such board', '--format', 'pdf', '--out', path.join(out, 'x.pdf'), '--profile', 'Demo'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('No board is named "No such board"')
    const format = await cli(['Demo board', '--format', 'svg', '--out', path.join(out, 'x.svg'), '--profile', 'Demo'])
    expect(format.code).toBe(2)
    expect(format.stderr).toContain('--format must be pdf or png')
    const noOut = await cli(['Demo board', '--format', 'pdf', '--profile', 'Demo'])
    expect(noOut.code).toBe(2)
    expect(noOut.stderr).toContain('needs --out FILE')
    expect((await readdir(out)).filter((name) => name.startsWith('x.'))).toEqual([])
  })

  it('says what it draws and its exit codes under --help', async () => {
    const run = await cli(['--help'])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('--kept')
    expect(run.stdout).toContain('4: written, but some tiles have no data')
    // Its --format is a page's format, not the other commands' json or csv.
    expect(run.stdout).toMatch(/--format VALUE +pdf or png \(required\)/)
    expect(run.stdout).not.toContain('json (default) or csv')
  })

  it('exits 1 and writes nothing when the platform cannot be reached for any tile', async () => {
    const file = path.join(out, 'down.pdf')
    const closed = ['--report-url', 'http://127.0.0.1:9/api', '--auth-url', 'http://127.0.0.1:9/auth', '--service-id', 'x']
    const run = await cli(['Demo board', '--format', 'pdf', '--out', file, ...closed], { ADOPS_TOKEN: 'token' })
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('nothing was written')
    expect(await readdir(out)).not.toContain('down.pdf')
  })
})
