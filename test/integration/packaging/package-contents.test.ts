import { execFile } from 'node:child_process'
import { promises as fs } from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { extractFile, listPackage } from '@electron/asar'
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses'
import { minimatch } from 'minimatch'
import { temporaryFolder } from '../../support/services'

const run = promisify(execFile)
const root = path.join(import.meta.dirname, '..', '..', '..')

// Electron's fuse wire as @electron/fuses finds it: the sentinel, the wire version (1), the
// number of fuses, then one byte per fuse ('0' off, '1' on). The stand-in starts from
// Electron's own defaults, so every fuse we set must be flipped by the packaging to pass.
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'
const OFF = 0x30
const ON = 0x31
const electronDefaults = [ON, OFF, ON, ON, OFF, OFF, OFF, ON] // indexed by FuseV1Options
const standInElectron = Buffer.concat([
  Buffer.from(`#!/bin/sh\necho stand-in electron\nexit 0\n${SENTINEL}`),
  Buffer.from([1, electronDefaults.length, ...electronDefaults]),
  Buffer.from('\n'),
])

/**
 * Packages the app with electron-builder as `npm run dist` would (Linux: unpacked, and the
 * AppImage and deb as far as their desktop entries; build-linux.mjs), over a stand-in Electron
 * distribution because the real binary cannot be downloaded here, and checks what went in: the
 * built output and the production dependencies, nothing else; the menu; the adopsdesk://
 * protocol registration; the fuses. (The macOS Info.plist and the Windows registry keys come
 * from the same `protocols` entry, but can only be built on those systems.)
 */
describe('the packaged app', () => {
  let files: string[]
  let archive: string
  let unpacked: string
  let executable: string
  let desktopEntries: { appImage?: string; deb?: string }

  beforeAll(async () => {
    await fs.access(path.join(root, 'out', 'main', 'index.js')).catch(() => {
      throw new Error('No build output; run "npm run build" first (npm test does).')
    })
    const electronDist = await temporaryFolder('adops-electron-dist-')
    await fs.writeFile(path.join(electronDist, 'electron'), standInElectron, { mode: 0o755 })
    await fs.writeFile(path.join(electronDist, 'version'), '45.4.1')
    const output = await temporaryFolder('adops-dist-')
    const { stdout } = await run(process.execPath, [path.join(import.meta.dirname, 'build-linux.mjs'), root, electronDist, output], {
      cwd: root,
      env: { ...process.env, CSC_IDENTITY_AUTO_DISCOVERY: 'false' },
      maxBuffer: 16 * 1024 * 1024,
    })
    desktopEntries = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as typeof desktopEntries
    const app = path.join(output, 'linux-unpacked')
    archive = path.join(app, 'resources', 'app.asar')
    files = listPackage(archive, { isPack: false }).map((file) => file.replaceAll('\\', '/'))
    unpacked = path.join(app, 'resources', 'app.asar.unpacked')
    executable = path.join(app, 'adops-desk')
    expect(await fs.readdir(app)).toContain('adops-desk')
  }, 120_000)

  it('holds the built main, preload and renderer, the licenses list and the package manifest', () => {
    for (const file of ['/package.json', '/out/main/index.js', '/out/preload/index.cjs', '/out/renderer/index.html', '/out/licenses.json'])
      expect(files).toContain(file)
  })

  it('holds the application menu in the packaged main, with the accelerators of the contract', () => {
    // The main bundle and the chunks it shares with the demo worker: the menu may sit in either.
    const main = files
      .filter((file) => /^\/out\/main\/.*\.js$/.test(file))
      .map((file) => extractFile(archive, file.slice(1)).toString('utf8'))
      .join('\n')
    expect(main).toContain('setApplicationMenu')
    for (const accelerator of ['CmdOrCtrl+Shift+C', 'CmdOrCtrl+Enter', 'CmdOrCtrl+K']) expect(main).toContain(accelerator)
    // The engine is imported from node_modules (vite keeps it external), never bundled: its native
    // module loads from disk. Imported at the first analysis (main/services/analysis/engine.ts).
    expect(main).toMatch(/import\(\s*"@duckdb\/node-api"\s*\)/)
  })

  it('registers the adopsdesk:// protocol in the desktop entries of the AppImage and the deb', () => {
    for (const target of ['appImage', 'deb'] as const) {
      const entry = desktopEntries[target] ?? ''
      expect(entry, target).toMatch(/^MimeType=(.*;)?x-scheme-handler\/adopsdesk;/m)
      // The link reaches the app as an argument.
      expect(entry, target).toMatch(/^Exec=.* %U$/m)
    }
  })

  it('holds the production dependencies', () => {
    for (const dependency of ['keytar', 'undici', 'zod', 'fflate', '@duckdb/node-api', 'echarts', '@resvg/resvg-js', 'pdfkit', 'svg-to-pdfkit'])
      expect(files).toContain(`/node_modules/${dependency}/package.json`)
  })

  it('holds no sources, tests, maps or development tools', () => {
    const offending = files.filter(
      (file) =>
        /^\/(main|preload|renderer|test|build|\.ci)\//.test(file) ||
        file.endsWith('.map') ||
        /^\/node_modules\/(electron|vite|vitest|vue|naive-ui|typescript|@playwright|electron-builder|tsx)\//.test(file),
    )
    expect(offending).toEqual([])
  })

  it("keeps keytar's native module outside the archive so it can load", async () => {
    const native = await fs.readdir(path.join(unpacked, 'node_modules', 'keytar', 'build', 'Release'))
    expect(native).toContain('keytar.node')
  })

  it("keeps the board drawing's rasterizer (resvg) native module outside the archive (Linux built here)", async () => {
    const packages = await fs.readdir(path.join(unpacked, 'node_modules', '@resvg'))
    const linux = packages.find((name) => name.startsWith('resvg-js-linux-'))
    expect(linux).toBeDefined()
    const native = await fs.readdir(path.join(unpacked, 'node_modules', '@resvg', linux ?? ''))
    expect(native.some((name) => name.endsWith('.node'))).toBe(true)
  })

  it("keeps the analytical engine's native module and its library outside the archive (Linux built here)", async () => {
    const bindings = await fs.readdir(path.join(unpacked, 'node_modules', '@duckdb'))
    const linux = bindings.find((name) => name.startsWith('node-bindings-linux-'))
    expect(linux).toBeDefined()
    const native = await fs.readdir(path.join(unpacked, 'node_modules', '@duckdb', linux ?? ''))
    expect(native).toEqual(expect.arrayContaining(['duckdb.node', 'libduckdb.so']))
  })

  it("unpacks the engine's binding package and resvg's native module of macOS and Windows too (their packages can only be built there: the config's globs are checked)", async () => {
    const config = await fs.readFile(path.join(root, 'electron-builder.yml'), 'utf8')
    const patterns = [...(/^asarUnpack:\n((?:\s+- .*\n)+)/m.exec(config)?.[1] ?? '').matchAll(/- "([^"]+)"/g)].map((match) => match[1] ?? '')
    const unpackedByConfig = (file: string): boolean => patterns.some((pattern) => minimatch(file, pattern, { dot: true }))
    for (const file of [
      'node_modules/@duckdb/node-bindings-darwin-arm64/duckdb.node',
      'node_modules/@duckdb/node-bindings-darwin-arm64/libduckdb.dylib',
      'node_modules/@duckdb/node-bindings-darwin-x64/libduckdb.dylib',
      'node_modules/@duckdb/node-bindings-win32-x64/duckdb.node',
      'node_modules/@duckdb/node-bindings-win32-x64/duckdb.dll',
      'node_modules/@duckdb/node-bindings-linux-x64/libduckdb.so',
      'node_modules/@resvg/resvg-js-darwin-arm64/resvgjs.darwin-arm64.node',
      'node_modules/@resvg/resvg-js-darwin-x64/resvgjs.darwin-x64.node',
      'node_modules/@resvg/resvg-js-win32-x64-msvc/resvgjs.win32-x64-msvc.node',
    ])
      expect(unpackedByConfig(file), file).toBe(true)
  })

  it('ships the Electron binary with its fuses set: no Node mode, no Node options or inspector, app only from an integrity-checked asar', async () => {
    const wire = await getCurrentFuseWire(executable)
    const state = (fuse: FuseV1Options): string => String.fromCharCode(Number(wire[fuse]))
    expect({
      runAsNode: state(FuseV1Options.RunAsNode),
      enableNodeOptionsEnvironmentVariable: state(FuseV1Options.EnableNodeOptionsEnvironmentVariable),
      enableNodeCliInspectArguments: state(FuseV1Options.EnableNodeCliInspectArguments),
      onlyLoadAppFromAsar: state(FuseV1Options.OnlyLoadAppFromAsar),
      enableEmbeddedAsarIntegrityValidation: state(FuseV1Options.EnableEmbeddedAsarIntegrityValidation),
      enableCookieEncryption: state(FuseV1Options.EnableCookieEncryption),
      grantFileProtocolExtraPrivileges: state(FuseV1Options.GrantFileProtocolExtraPrivileges),
    }).toEqual({
      runAsNode: '0',
      enableNodeOptionsEnvironmentVariable: '0',
      enableNodeCliInspectArguments: '0',
      onlyLoadAppFromAsar: '1',
      enableEmbeddedAsarIntegrityValidation: '1',
      enableCookieEncryption: '1',
      grantFileProtocolExtraPrivileges: '0',
    })
  })
})
