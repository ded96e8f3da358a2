// Whether this checkout has Electron's binary, found the way the electron package finds it
// (node_modules/electron/path.txt names it under dist/, or ELECTRON_OVERRIDE_DIST_PATH) but
// WITHOUT require('electron'): that require downloads the binary when it is missing, and here
// a missing binary must be a clear skip, never a download attempt or a hang.
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'

/**
 * `{ found: true, executable }` or `{ found: false, reason }` (one sentence: what is missing
 * and how to get it). `modulesDir` is the node_modules holding electron; `environment` is
 * process.env (only ELECTRON_OVERRIDE_DIST_PATH is read).
 */
export function findElectronBinary(modulesDir, environment = process.env) {
  const packageDir = path.join(modulesDir, 'electron')
  const getIt = 'run `npx install-electron` (downloads it from GitHub) or set ELECTRON_OVERRIDE_DIST_PATH'
  let version
  try {
    version = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')).version
  } catch {
    return { found: false, reason: `the electron package is not installed (${packageDir}): run npm ci.` }
  }
  let relative
  try {
    relative = readFileSync(path.join(packageDir, 'path.txt'), 'utf8').trim()
  } catch {
    return { found: false, reason: `Electron ${version}'s binary was never downloaded (node_modules/electron/path.txt is missing): ${getIt}.` }
  }
  const override = environment.ELECTRON_OVERRIDE_DIST_PATH
  const executable = path.join(override ? override : path.join(packageDir, 'dist'), relative)
  if (!existsSync(executable)) return { found: false, reason: `Electron's binary is not at ${executable}: ${getIt}.` }
  return { found: true, executable }
}

/**
 * What the smoke run does: `run` with the binary; without it `skip` (said in one line, and
 * never counted as a pass), or `fail` where Electron is required (CI sets ADOPS_REQUIRE_ELECTRON=1,
 * so a runner that lost its binary cannot go green by skipping).
 */
export function decideSmokeRun(binary, environment = process.env) {
  if (binary.found) return { action: 'run', executable: binary.executable }
  if (environment.ADOPS_REQUIRE_ELECTRON === '1')
    return { action: 'fail', line: `Electron smoke: FAILED — Electron is required here (ADOPS_REQUIRE_ELECTRON=1) and ${binary.reason}` }
  return { action: 'skip', line: `Electron smoke: SKIPPED (not run, not passed) — ${binary.reason}` }
}
