import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { decideSmokeRun, findElectronBinary } from '../../electron/electron-binary.mjs'

// How `npm run test:electron` (test/electron/run.mjs) decides between running the Electron
// smoke, skipping it with a reason, and failing: on a fake node_modules, never a real Electron.

let modulesDir: string

function write(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileSync(file, text)
}

beforeEach(() => {
  modulesDir = mkdtempSync(path.join(tmpdir(), 'adops-electron-binary-'))
})
afterEach(() => {
  rmSync(modulesDir, { recursive: true, force: true })
})

describe('finding Electron’s binary without downloading it', () => {
  it('finds the binary path.txt names under dist/', () => {
    write(path.join(modulesDir, 'electron', 'package.json'), JSON.stringify({ version: '45.4.1' }))
    write(path.join(modulesDir, 'electron', 'path.txt'), 'electron')
    write(path.join(modulesDir, 'electron', 'dist', 'electron'), 'a binary')
    expect(findElectronBinary(modulesDir, {})).toEqual({ found: true, executable: path.join(modulesDir, 'electron', 'dist', 'electron') })
  })

  it('looks under ELECTRON_OVERRIDE_DIST_PATH when it is set', () => {
    write(path.join(modulesDir, 'electron', 'package.json'), JSON.stringify({ version: '45.4.1' }))
    write(path.join(modulesDir, 'electron', 'path.txt'), 'electron')
    const elsewhere = path.join(modulesDir, 'elsewhere')
    write(path.join(elsewhere, 'electron'), 'a binary')
    expect(findElectronBinary(modulesDir, { ELECTRON_OVERRIDE_DIST_PATH: elsewhere })).toEqual({ found: true, executable: path.join(elsewhere, 'electron') })
  })

  it('says why when the binary was never downloaded, was removed, or electron is not installed', () => {
    expect(findElectronBinary(modulesDir, {})).toMatchObject({ found: false, reason: expect.stringContaining('electron package is not installed') })
    write(path.join(modulesDir, 'electron', 'package.json'), JSON.stringify({ version: '45.4.1' }))
    expect(findElectronBinary(modulesDir, {})).toMatchObject({ found: false, reason: expect.stringContaining("Electron 45.4.1's binary was never downloaded") })
    write(path.join(modulesDir, 'electron', 'path.txt'), 'electron')
    expect(findElectronBinary(modulesDir, {})).toMatchObject({ found: false, reason: expect.stringContaining("Electron's binary is not at") })
  })
})

describe('what the smoke run does', () => {
  const missing = { found: false as const, reason: 'the binary is missing.' }

  it('runs where the binary is', () => {
    expect(decideSmokeRun({ found: true, executable: '/x/electron' }, {})).toEqual({ action: 'run', executable: '/x/electron' })
  })

  it('skips with one line saying why, and that nothing passed, where it is not', () => {
    const decision = decideSmokeRun(missing, {})
    expect(decision).toEqual({ action: 'skip', line: 'Electron smoke: SKIPPED (not run, not passed) — the binary is missing.' })
  })

  it('fails instead where Electron is required (CI)', () => {
    expect(decideSmokeRun(missing, { ADOPS_REQUIRE_ELECTRON: '1' })).toMatchObject({ action: 'fail', line: expect.stringContaining('FAILED') })
  })
})
