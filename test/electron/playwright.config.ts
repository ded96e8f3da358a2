import { defineConfig } from '@playwright/test'

/**
 * The Electron smoke: the built app itself (out/main/index.js) in Electron, driven by
 * Playwright's `_electron`. Its own config so `npm run test:e2e` (Chromium through the web
 * host) stays as it is; run it with `npm run test:electron` (test/electron/run.mjs), which
 * says SKIPPED where Electron's binary is not installed.
 */
export default defineConfig({
  testDir: '.',
  testMatch: 'smoke.spec.ts',
  outputDir: '../artifacts/electron',
  timeout: 240_000,
  expect: { timeout: 30_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: true,
  reporter: [['list']],
  use: { testIdAttribute: 'data-test', trace: 'retain-on-failure', screenshot: 'only-on-failure' },
})
