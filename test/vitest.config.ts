import { defineConfig } from 'vitest/config'
import { resolve } from 'node:path'
import vue from '@vitejs/plugin-vue'
import { DOM_TEST_FILES } from './dom-files.mjs'
import { ISOLATED_TEST_FILES } from './isolated-files.mjs'

const alias = { '@contract': resolve(import.meta.dirname, '../preload/contract/index.ts') }

// Unit and integration tests. Renderer component tests opt into happy-dom per file
// with `// @vitest-environment happy-dom`; everything else runs in plain Node, which is
// the point: main/services must never need Electron.
//
// vitest keeps a worker, and with `isolate: false` its module graph, only from one file to the
// next of the same project and environment; any other next file gets a fresh worker that imports
// zod, Vue, Naive UI and the contract again. So each shared-graph project holds files of one
// environment only: the happy-dom files are a project of their own (`dom`), found by their
// declaration (test/dom-files.mjs), instead of scattered through `unit`.
export default defineConfig({
  plugins: [vue()],
  resolve: { alias },
  test: {
    root: '.',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default'],
    // Every temporary file a test makes goes in the run's own folder, emptied as each file ends.
    globalSetup: ['test/support/temporary/global-setup.ts'],
    setupFiles: ['test/support/temporary/per-file.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          exclude: DOM_TEST_FILES,
          // Test files share one module graph per worker instead of importing zod, Vue, Naive UI,
          // undici and the contract again for every file: measured on the 2-core machine, the unit
          // files took a quarter of the CPU time (49 s against 193 s) and the integration files a
          // little over half (116 s against 202 s), every test passing. A test file therefore
          // leaves no module mock or stubbed global behind; the few that need them run isolated.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          exclude: ISOLATED_TEST_FILES,
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          include: DOM_TEST_FILES,
          // A happy-dom file that mocks runs isolated (it keeps its own environment declaration).
          exclude: ISOLATED_TEST_FILES,
          environment: 'happy-dom',
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          // Each in a fresh module graph: they mock modules (vi.mock) or stub globals.
          include: ISOLATED_TEST_FILES,
          isolate: true,
        },
      },
    ],
  },
})
