import { existsSync } from 'node:fs'
import { defineConfig } from '@playwright/test'

// Debian's Chromium where it is installed (CI, and machines that cannot download
// Playwright's own browser); otherwise Playwright's bundled one.
const systemChromium = '/usr/bin/chromium'

export default defineConfig({
  testDir: './e2e',
  outputDir: './artifacts/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    viewport: { width: 1320, height: 860 },
    testIdAttribute: 'data-test',
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      ...(existsSync(systemChromium) ? { executablePath: systemChromium } : {}),
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
