import os from 'node:os'
import { defineConfig } from '@playwright/test'
import { systemBrowser } from '../build/check-prerequisites.mjs'

// Debian's Chromium headless shell where it is installed, else Debian's Chromium
// (build/check-prerequisites.mjs says why the shell comes first), else Playwright's bundled one.
// ADOPS_E2E_CHROMIUM names another (to compare browsers, or to look at screens in full Chromium).
const browser = process.env.ADOPS_E2E_CHROMIUM || systemBrowser()

export default defineConfig({
  testDir: './e2e',
  outputDir: './artifacts/e2e',
  // Bounds for a test that hangs, not for a slow one: with two workers each test takes about
  // 1.5 times what it takes alone (332.7 s of tests against 221.5 s), and the machines these
  // runs land on differ by more than that again (the same gate took 372 s on one, 199 s on another).
  timeout: 90_000,
  expect: { timeout: 15_000 },
  // Every test has its own web host, user-data folder, port, keychain service name and (where it
  // needs one) demo backend, so tests share nothing and run in parallel: two workers at least, half
  // the cores on a bigger machine (Playwright's own default). A test spends much of its time
  // waiting (on the page's timers, the host, the demo backend, a fault it set up), so two fit
  // on the 2-core CI machine: measured there in the gate, e2e took 165.5 s with two where it took
  // 226.7 with one (the whole gate 191.5 s and 233.6; its 229 CPU s in 191 s of wall time left
  // room). ADOPS_E2E_WORKERS sets another number (1 to follow one test's output in order).
  fullyParallel: true,
  workers: process.env.ADOPS_E2E_WORKERS ? Number(process.env.ADOPS_E2E_WORKERS) : Math.max(2, Math.floor(os.availableParallelism() / 2)),
  retries: 0,
  reporter: [['list']],
  use: {
    viewport: { width: 1320, height: 860 },
    testIdAttribute: 'data-test',
    // The system setting asking for less motion, which the app honours (App.vue): no test waits
    // for a menu to fade or a drawer to slide before it can act. chart-files.spec.ts runs with
    // motion, so the fading menus a user sees by default stay covered.
    reducedMotion: 'reduce',
    screenshot: 'only-on-failure',
    // No trace by default: recording one (a screencast and a DOM snapshot per action) cost
    // reports.spec.ts 120 CPU s where it takes 75 without, on the 2-core CI machine, for every test that passes. To
    // chase a failure, run it again with ADOPS_E2E_TRACE=1 (or `--trace on`); a failure always
    // keeps its screenshot.
    trace: process.env.ADOPS_E2E_TRACE ? 'retain-on-failure' : 'off',
    launchOptions: {
      ...(browser === undefined ? {} : { executablePath: browser }),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
})
