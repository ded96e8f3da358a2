import { resolve } from 'node:path'
import { defineConfig, type UserConfig } from 'vite'
import vue from '@vitejs/plugin-vue'

const root = import.meta.dirname
const here = (path: string): string => resolve(root, path)

/**
 * One config, three builds, chosen by `--mode` (see the `build` script):
 * - main: Node ESM for Electron's main process; node_modules stay external so keytar's
 *   native module loads from disk and electron resolves to the runtime.
 * - preload: ONE CommonJS file with its dependencies bundled, because a sandboxed preload
 *   cannot require anything but electron.
 * - renderer (default): the Vue app.
 */
/** `@contract` is the bridge's contract, imported the same way from main, renderer and tests. */
const alias = { '@contract': here('preload/contract/index.ts') }

const targets: Record<string, UserConfig> = {
  main: {
    resolve: { alias },
    build: {
      ssr: true,
      outDir: here('out/main'),
      emptyOutDir: true,
      target: 'node20',
      sourcemap: true,
      rollupOptions: {
        // The demo backend's worker thread is a file of its own (sandbox-worker.js), started
        // by main/sandbox/in-worker.ts when the demo opens; nothing imports it.
        input: { index: here('main/index.ts'), 'sandbox-worker': here('main/sandbox/worker.ts') },
        output: { format: 'es', entryFileNames: '[name].js' },
      },
    },
  },
  preload: {
    resolve: { alias },
    build: {
      outDir: here('out/preload'),
      emptyOutDir: true,
      target: 'chrome130',
      minify: false,
      lib: { entry: here('preload/index.ts'), formats: ['cjs'], fileName: () => 'index.cjs' },
      rollupOptions: { external: ['electron'] },
    },
  },
  renderer: {
    root: here('renderer'),
    base: './',
    plugins: [vue()],
    resolve: { alias },
    build: {
      outDir: here('out/renderer'),
      emptyOutDir: true,
      target: 'chrome130',
      chunkSizeWarningLimit: 3_000,
    },
  },
}

export default defineConfig(({ mode }) => targets[mode] ?? (targets.renderer as UserConfig))
