#!/usr/bin/env node
// `npm run test:electron`: the Electron smoke (test/electron/smoke.spec.ts) where Electron's
// binary is installed. Without it, one line says SKIPPED and why, and the exit code is the
// gate's SKIPPED_EXIT_CODE (77): no test was run, so nothing is reported as passed, and the gate
// (build/gate.mjs) lists it as skipped and goes on. With ADOPS_REQUIRE_ELECTRON=1 (CI) a missing
// binary fails instead. Extra arguments go to Playwright.
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { SKIPPED_EXIT_CODE } from '../../build/gate.mjs'
import { decideSmokeRun, findElectronBinary } from './electron-binary.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
const modulesDir = path.join(root, 'node_modules')
const decision = decideSmokeRun(findElectronBinary(modulesDir))
if (decision.action !== 'run') {
  console.log(decision.line)
  process.exit(decision.action === 'skip' ? SKIPPED_EXIT_CODE : 1)
}
const playwright = createRequire(path.join(root, 'package.json')).resolve('@playwright/test/cli')
const run = spawnSync(process.execPath, [playwright, 'test', '--config', path.join('test', 'electron', 'playwright.config.ts'), ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  // The spec must run, not skip: it fails if it cannot find the binary this script found.
  env: { ...process.env, ADOPS_REQUIRE_ELECTRON: '1' },
})
process.exit(run.status ?? 1)
