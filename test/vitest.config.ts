import { defineConfig } from 'vitest/config'
import { resolve } from 'node:path'
import vue from '@vitejs/plugin-vue'

const alias = { '@contract': resolve(import.meta.dirname, '../preload/contract/index.ts') }

// Unit and integration tests. Renderer component tests opt into happy-dom per file
// with `// @vitest-environment happy-dom`; everything else runs in plain Node, which is
// the point: main/services must never need Electron.
export default defineConfig({
  plugins: [vue()],
  resolve: { alias },
  test: {
    root: '.',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          // Unit tests share one module graph per worker instead of importing zod, Vue, Naive UI
          // and the contract again for every file: measured on the 2-core machine, the unit
          // files took a quarter of the CPU time (49 s against 193 s) with every test passing.
          // A unit test therefore leaves no global state behind (no module mocks: those live in
          // integration tests, which stay isolated).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          // Each file in a fresh module graph: these mock modules (vi.mock), start servers and
          // change process-wide state.
          isolate: true,
        },
      },
    ],
  },
})
