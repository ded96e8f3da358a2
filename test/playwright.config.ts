import { defineConfig } from '@playwright/test'
import { systemBrowser } from '../build/check-prerequisites.mjs'

// Debian's Chromium headless shell where it is installed, else Debian's Chromium
// (build/check-prerequisites.mjs says why the shell comes first), else Playwright's bundled one.
// ADOPS_E2E_CHROMIUM names another (to compare browsers, or to look at screens in full Chromium).
const browser = process.env.ADOPS_E2E_CHROMIUM || systemBrowser()

export default defineConfig({
  testDir: './e2e',
  outputDir: './artifacts/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Every test has its own web host, user-data folder, port, keychain service name and (where it
  // needs one) demo backend, so tests share nothing and could run in parallel. They run one at a
  // time because the CI machine has 2 cores and a test keeps both busy (Chromium, the host, the
  // demo backend): measured on it, two workers took 9.4 min for the suite where one took 8.7,
  // each test two to three times slower. ADOPS_E2E_WORKERS sets more on a bigger machine.
  fullyParallel: true,
  workers: process.env.ADOPS_E2E_WORKERS ? Number(process.env.ADOPS_E2E_WORKERS) : 1,
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
