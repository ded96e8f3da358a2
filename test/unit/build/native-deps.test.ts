import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  makeElectronSideBuild,
  SIDE_BUILD_KEYTAR,
  SIDE_BUILD_STAMP,
  sideBuildIsCurrent,
  wantedElectronBuild,
  type ElectronBuildTarget,
} from '../../../build/native-deps.mjs'
import { loadKeytar } from '../../../main/services/secrets/keychain'
import { chooseKeytarBuild, SIDE_BUILD_KEYTAR as LOADER_KEYTAR_DIR, SIDE_BUILD_STAMP as LOADER_STAMP } from '../../../main/services/secrets/keytar-builds.mjs'

// keytar's two builds side by side (build/native-deps.mjs) and the loader that picks one
// (main/services/secrets/keychain.ts, by keytar-builds.mjs's choice), on a fake node_modules: the "binaries" are text files
// and the fake keytar's wrapper says which one it loaded, so no compiler or Electron is needed.

const NODE_BINARY = 'built for Node'
const ELECTRON_BINARY = 'built for Electron'

let modulesDir: string

function write(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileSync(file, text)
}

/** node_modules with electron and keytar as npm leaves them: keytar's own build made for Node. */
function fakeModules(electronVersion = '45.4.1'): void {
  write(path.join(modulesDir, 'electron', 'package.json'), JSON.stringify({ name: 'electron', version: electronVersion }))
  const keytar = path.join(modulesDir, 'keytar')
  write(path.join(keytar, 'package.json'), JSON.stringify({ name: 'keytar', version: '7.9.0', main: './lib/keytar.js' }))
  write(path.join(keytar, 'src', 'keytar.cc'), '// the source the build compiles')
  write(
    path.join(keytar, 'lib', 'keytar.js'),
    "module.exports = { loaded: require('fs').readFileSync(require('path').join(__dirname, '..', 'build', 'Release', 'keytar.node'), 'utf8') }\n",
  )
  write(path.join(keytar, 'build', 'Release', 'keytar.node'), NODE_BINARY)
}

/** Stands in for @electron/rebuild: "compiles" the copy under root, and counts. */
function fakeBuilder(): { build: (root: string, wanted: ElectronBuildTarget) => Promise<void>; roots: string[] } {
  const roots: string[] = []
  return {
    roots,
    build: async (root) => {
      roots.push(root)
      expect(JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'))).toMatchObject({ dependencies: { keytar: '7.9.0' } })
      // The copy holds keytar's source but none of Node's build.
      expect(existsSync(path.join(root, 'node_modules', 'keytar', 'src', 'keytar.cc'))).toBe(true)
      expect(existsSync(path.join(root, 'node_modules', 'keytar', 'build'))).toBe(false)
      write(path.join(root, 'node_modules', 'keytar', 'build', 'Release', 'keytar.node'), ELECTRON_BINARY)
    },
  }
}

const nodeBinary = (): string => readFileSync(path.join(modulesDir, 'keytar', 'build', 'Release', 'keytar.node'), 'utf8')
const sideBinary = (): string => readFileSync(path.join(modulesDir, SIDE_BUILD_KEYTAR, 'build', 'Release', 'keytar.node'), 'utf8')

beforeEach(() => {
  modulesDir = mkdtempSync(path.join(tmpdir(), 'adops-native-'))
})
afterEach(() => {
  rmSync(modulesDir, { recursive: true, force: true })
})

describe("keytar's Electron build, kept beside Node's", () => {
  it('is built once into its own folder and leaves Node’s build as it was', async () => {
    fakeModules()
    const wanted = wantedElectronBuild(modulesDir, 'linux', 'x64')
    expect(wanted).toEqual({ electron: '45.4.1', keytar: '7.9.0', platform: 'linux', arch: 'x64' })
    expect(sideBuildIsCurrent(modulesDir, wanted)).toBe(false)

    const builder = fakeBuilder()
    await makeElectronSideBuild(modulesDir, wanted, builder.build)
    expect(builder.roots).toHaveLength(1)
    expect(sideBinary()).toBe(ELECTRON_BINARY)
    expect(nodeBinary()).toBe(NODE_BINARY)
    expect(sideBuildIsCurrent(modulesDir, wanted)).toBe(true)
    // Nothing half-made is left beside it.
    expect(readdirSync(path.join(modulesDir, '.adops-native'))).toEqual(['electron'])
  })

  it('is made again when Electron, keytar, the platform or the architecture changes, and only then', async () => {
    fakeModules()
    const wanted = wantedElectronBuild(modulesDir, 'linux', 'x64')
    await makeElectronSideBuild(modulesDir, wanted, fakeBuilder().build)
    expect(sideBuildIsCurrent(modulesDir, { ...wanted })).toBe(true)
    expect(sideBuildIsCurrent(modulesDir, { ...wanted, electron: '46.0.0' })).toBe(false)
    expect(sideBuildIsCurrent(modulesDir, { ...wanted, keytar: '7.9.1' })).toBe(false)
    expect(sideBuildIsCurrent(modulesDir, { ...wanted, platform: 'darwin' })).toBe(false)
    expect(sideBuildIsCurrent(modulesDir, { ...wanted, arch: 'arm64' })).toBe(false)

    fakeModules('46.0.0')
    const upgraded = wantedElectronBuild(modulesDir, 'linux', 'x64')
    expect(sideBuildIsCurrent(modulesDir, upgraded)).toBe(false)
    await makeElectronSideBuild(modulesDir, upgraded, fakeBuilder().build)
    expect(sideBuildIsCurrent(modulesDir, upgraded)).toBe(true)
  })

  it('keeps the previous side build and Node’s when a build fails, with nothing half-made left', async () => {
    fakeModules()
    const wanted = wantedElectronBuild(modulesDir, 'linux', 'x64')
    await makeElectronSideBuild(modulesDir, wanted, fakeBuilder().build)

    const failing = async (root: string): Promise<void> => {
      write(path.join(root, 'node_modules', 'keytar', 'build', 'Release', 'keytar.node'), 'half a build')
      throw new Error('gyp: Electron headers could not be downloaded')
    }
    await expect(makeElectronSideBuild(modulesDir, { ...wanted, electron: '46.0.0' }, failing)).rejects.toThrow('headers could not be downloaded')
    expect(sideBinary()).toBe(ELECTRON_BINARY)
    expect(sideBuildIsCurrent(modulesDir, wanted)).toBe(true)
    expect(nodeBinary()).toBe(NODE_BINARY)
    expect(readdirSync(path.join(modulesDir, '.adops-native'))).toEqual(['electron'])
  })

  it('is where the keychain loader looks', () => {
    expect(LOADER_KEYTAR_DIR).toBe(SIDE_BUILD_KEYTAR)
    expect(LOADER_STAMP).toBe(SIDE_BUILD_STAMP)
  })
})

describe('the keychain loader', () => {
  const linux = { platform: 'linux', arch: 'x64' }
  const packageKeytar = { loaded: 'keytar’s own package' }
  const importPackage = async (): Promise<unknown> => ({ default: packageKeytar })

  it('chooses the side build only in the Electron it was made for, on its platform and architecture', () => {
    const side = { electron: '45.4.1', keytar: '7.9.0', ...linux }
    const chooseKeytar = (runtime: { electron: string | undefined; platform: string; arch: string }, sideBuild: typeof side | null) =>
      chooseKeytarBuild({ runtime, keytar: '7.9.0', sideBuild, sideBuildCopy: sideBuild !== null }).build
    expect(chooseKeytar({ electron: '45.4.1', ...linux }, side)).toBe('electron-side-build')
    expect(chooseKeytar({ electron: undefined, ...linux }, side)).toBe('package')
    expect(chooseKeytar({ electron: '45.4.1', ...linux }, null)).toBe('package')
    expect(chooseKeytar({ electron: '46.0.0', ...linux }, side)).toBe('package')
    expect(chooseKeytar({ electron: '45.4.1', platform: 'linux', arch: 'arm64' }, side)).toBe('package')
    expect(chooseKeytar({ electron: '45.4.1', platform: 'win32', arch: 'x64' }, side)).toBe('package')
  })

  it('loads the Electron build in Electron and keytar’s own in plain Node, from the same node_modules', async () => {
    fakeModules()
    await makeElectronSideBuild(modulesDir, wantedElectronBuild(modulesDir, linux.platform, linux.arch), fakeBuilder().build)

    const inElectron = await loadKeytar({ runtime: { electron: '45.4.1', ...linux }, modulesDir, importPackage })
    expect(inElectron).toEqual({ loaded: ELECTRON_BINARY })
    const inNode = await loadKeytar({ runtime: { electron: undefined, ...linux }, modulesDir, importPackage })
    expect(inNode).toBe(packageKeytar)
  })

  it('falls back to keytar’s own package in Electron when there is no side build or it is for another Electron', async () => {
    fakeModules()
    expect(await loadKeytar({ runtime: { electron: '45.4.1', ...linux }, modulesDir, importPackage })).toBe(packageKeytar)
    await makeElectronSideBuild(modulesDir, wantedElectronBuild(modulesDir, linux.platform, linux.arch), fakeBuilder().build)
    expect(await loadKeytar({ runtime: { electron: '46.0.0', ...linux }, modulesDir, importPackage })).toBe(packageKeytar)
    // An unreadable stamp is no side build.
    writeFileSync(path.join(modulesDir, LOADER_STAMP), '{ not json')
    expect(await loadKeytar({ runtime: { electron: '45.4.1', ...linux }, modulesDir, importPackage })).toBe(packageKeytar)
  })
})
