import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { defineConfig, runnerImport, type Plugin, type UserConfig } from 'vite'
import vue from '@vitejs/plugin-vue'
import type * as ContractModule from './preload/contract/index'

const root = import.meta.dirname
const here = (path: string): string => resolve(root, path)

/**
 * One config, six builds, chosen by `--mode` (see the `build` script):
 * - main: Node ESM for Electron's main process; node_modules stay external so keytar's
 *   native module loads from disk and electron resolves to the runtime.
 * - cli: the command line as plain Node ESM (out/cli/index.js), so `npm run cli` starts from
 *   built JavaScript instead of compiling TypeScript each time; node_modules external but zod
 *   and undici (only the files the HTTP client uses), both bundled: every cron export pays the start.
 * - preload: ONE CommonJS file with its dependencies bundled, because a sandboxed preload
 *   cannot require anything but electron.
 * - web, web-bridge: the web host (out/web/preview-web.js), its page bridge and the demo
 *   backend's command line, for `npm run preview:web` and the end-to-end tests.
 * - renderer (default): the Vue app.
 */
/** `@contract` is the bridge's contract, imported the same way from main, renderer and tests. */
const alias = { '@contract': here('preload/contract/index.ts') }
/** The XLSX reader's worker thread, an entry of its own in every build that runs main's services. */
const XLSX_WORKER = here('main/services/bulk/xlsx-worker.ts')

/**
 * The folder of the package a bundled module came from, as package-lock.json names it:
 * `/…/node_modules/vue/dist/vue.js` → `node_modules/vue`, nested installs kept
 * (`node_modules/a/node_modules/b`). null for our own modules.
 */
export function packageKeyOf(moduleId: string): string | null {
  const clean = moduleId.replace(/^\0/, '').split('?')[0]?.replaceAll('\\', '/') ?? ''
  const start = clean.indexOf('/node_modules/')
  if (start === -1) return null
  const parts = clean.slice(start + 1).split('/')
  const key: string[] = []
  let index = 0
  while (parts[index] === 'node_modules' && parts[index + 1] !== undefined) {
    const scoped = parts[index + 1]?.startsWith('@') ?? false
    key.push('node_modules', scoped ? `${parts[index + 1]}/${parts[index + 2] ?? ''}` : (parts[index + 1] as string))
    index += scoped ? 3 : 2
  }
  return key.length === 0 ? null : key.join('/')
}

/**
 * Writes which packages the bundle was built from to `out/bundled-packages.<name>.json`:
 * build/licenses.mjs lists exactly those in About, not every tool a devDependency pulls in.
 */
function bundledPackagesReport(name: string): Plugin {
  return {
    name: 'adops-bundled-packages',
    apply: 'build',
    async generateBundle() {
      const keys = new Set<string>()
      for (const id of this.getModuleIds()) {
        const key = packageKeyOf(id)
        if (key !== null) keys.add(key)
      }
      const report = here(`out/bundled-packages.${name}.json`)
      await mkdir(dirname(report), { recursive: true })
      await writeFile(report, `${JSON.stringify([...keys].sort(), null, 1)}\n`)
    },
  }
}

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
        // by main/sandbox/in-worker.ts when the demo opens; so is the XLSX reader's
        // (xlsx-worker.js, started by main/services/bulk/xlsx-in-worker.ts for each workbook
        // read, in this build, the cli's and the web host's). Nothing imports either.
        input: { index: here('main/index.ts'), 'sandbox-worker': here('main/sandbox/worker.ts'), 'xlsx-worker': XLSX_WORKER },
        output: { format: 'es', entryFileNames: '[name].js' },
      },
    },
  },
  cli: {
    // undici as the command line needs it, without the rest of undici's entry (build/cli-undici.mjs).
    resolve: {
      alias: [...Object.entries(alias).map(([find, replacement]) => ({ find, replacement })), { find: /^undici$/, replacement: here('build/cli-undici.mjs') }],
    },
    // zod bundled: one file, its unused parts (the locales but English) left out, instead of some
    // hundred modules resolved and compiled at every start. undici bundled too: its thirty
    // CommonJS files, resolved and wrapped one by one, cost about 20 ms of every start.
    ssr: { noExternal: ['zod', 'undici'] },
    build: {
      ssr: true,
      outDir: here('out/cli'),
      emptyOutDir: true,
      target: 'node20',
      sourcemap: true,
      rollupOptions: { input: { index: here('main/cli.ts'), 'xlsx-worker': XLSX_WORKER }, output: { format: 'es', entryFileNames: '[name].js' } },
    },
  },
  // The web host (`npm run preview:web`, the end-to-end tests) and the demo backend's command
  // line, built like the cli so a start runs JavaScript, not a TypeScript loader and a bundler:
  // zod bundled and undici as the HTTP client needs it, as in the cli, because every end-to-end
  // test starts a host (about 0.4 CPU s of module loading each, measured with --cpu-prof).
  web: {
    resolve: {
      alias: [...Object.entries(alias).map(([find, replacement]) => ({ find, replacement })), { find: /^undici$/, replacement: here('build/cli-undici.mjs') }],
    },
    ssr: { noExternal: ['zod'] },
    define: { __ADOPS_WEB_HOST_BUILT__: 'true' },
    build: {
      ssr: true,
      outDir: here('out/web'),
      emptyOutDir: true,
      target: 'node20',
      sourcemap: true,
      rollupOptions: {
        input: {
          'preview-web': here('main/hosts/web/preview-web.ts'),
          'sandbox-worker': here('main/sandbox/worker.ts'),
          'xlsx-worker': XLSX_WORKER,
          sandbox: here('main/sandbox/cli.ts'),
        },
        output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
      },
    },
  },
  // The web host's page-side bridge (main/hosts/web/web-bridge.ts), which the host serves to
  // the page: built once here instead of bundled by every host process at start.
  'web-bridge': {
    resolve: { alias },
    build: {
      outDir: here('out/web'),
      emptyOutDir: false,
      minify: false,
      target: 'chrome130',
      lib: { entry: here('main/hosts/web/web-bridge.ts'), formats: ['iife'], name: 'AdopsWebBridge', fileName: () => 'bridge.js' },
    },
  },
  preload: {
    // Which packages the bundle holds, for the licenses list (build/licenses.mjs).
    plugins: [bundledPackagesReport('preload')],
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
    plugins: [vue(), bundledPackagesReport('renderer')],
    resolve: { alias },
    // The report pivot's worker (composables/pivot/pivot.worker.ts) is a module worker, built as one: same origin, so `script-src 'self'` admits it.
    worker: { format: 'es' },
    build: {
      outDir: here('out/renderer'),
      emptyOutDir: true,
      target: 'chrome130',
      chunkSizeWarningLimit: 3_000,
    },
  },
}

/**
 * The contract's channel and event names for the bridges (preload/contract-names.ts): read from
 * the contract here, at build time, so the preload and the web host's page bridge hold the names
 * and not the schemas (the preload went from 300 KB of zod and schemas to a few KB).
 */
async function contractNamesDefine(): Promise<Record<string, string>> {
  // Through Vite's module runner, which compiles the contract as the builds do (the config itself is loaded natively).
  const { module } = await runnerImport<typeof ContractModule>(here('preload/contract/index.ts'), { configFile: false, logLevel: 'silent' })
  const { channelNames, eventNames } = module
  return { __ADOPS_CONTRACT_NAMES__: JSON.stringify({ channels: channelNames, events: eventNames }) }
}

export default defineConfig(async ({ mode }) => {
  const target = targets[mode] ?? (targets.renderer as UserConfig)
  if (mode !== 'preload' && mode !== 'web-bridge') return target
  return { ...target, define: { ...target.define, ...(await contractNamesDefine()) } }
})
