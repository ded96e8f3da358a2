import { defineConfig } from 'vitest/config'
import { resolve } from 'node:path'
import vue from '@vitejs/plugin-vue'

// Unit and integration tests. Renderer component tests opt into happy-dom per file
// with `// @vitest-environment happy-dom`; everything else runs in plain Node, which is
// the point: main/services must never need Electron.
export default defineConfig({
  plugins: [vue()],
  resolve: { alias: { '@contract': resolve(import.meta.dirname, '../preload/contract/index.ts') } },
  test: {
    root: '.',
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default'],
  },
})
