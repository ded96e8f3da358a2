#!/usr/bin/env node
// keytar is a native module. Plain Node (tests, the CLI, the web host) loads keytar's own build
// in node_modules/keytar; the app from a checkout (`npm start`) loads a second build made for
// Electron and kept beside it, in node_modules/.adops-native/electron (a copy of the keytar
// package with its own binary, and a stamp of what it was built for). Neither build ever
// replaces the other, so `npm run cli` after `npm start` (or the other way round) finds its
// own build and nothing is recompiled; main/services/secrets/keychain.ts picks the one that
// matches the running process. This script makes each build right, and does nothing (no
// compiler, no download) when it already is.
//   node build/native-deps.mjs node      before tests: keytar's own build loads in this Node
//   node build/native-deps.mjs electron  before starting the app: the Electron build is there
//                                        and current (and the Node one still loads)
import { execFileSync, spawnSync } from 'node:child_process'
import { cpSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync, mkdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

/** Relative to node_modules; the same places as ELECTRON_KEYTAR_DIR / ELECTRON_KEYTAR_STAMP in keychain.ts. */
export const SIDE_BUILD_ROOT = path.join('.adops-native', 'electron')
export const SIDE_BUILD_KEYTAR = path.join(SIDE_BUILD_ROOT, 'node_modules', 'keytar')
export const SIDE_BUILD_STAMP = path.join(SIDE_BUILD_ROOT, 'build.json')

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'))

/** What the Electron build must be made for: the installed Electron and keytar, this platform and architecture. */
export function wantedElectronBuild(modulesDir, platform = process.platform, arch = process.arch) {
  return {
    electron: readJson(path.join(modulesDir, 'electron', 'package.json')).version,
    keytar: readJson(path.join(modulesDir, 'keytar', 'package.json')).version,
    platform,
    arch,
  }
}

/** Whether the side build is there and was made for exactly `wanted`. */
export function sideBuildIsCurrent(modulesDir, wanted) {
  try {
    const stamp = readJson(path.join(modulesDir, SIDE_BUILD_STAMP))
    return (
      ['electron', 'keytar', 'platform', 'arch'].every((key) => stamp[key] === wanted[key]) &&
      existsSync(path.join(modulesDir, SIDE_BUILD_KEYTAR, 'package.json'))
    )
  } catch {
    return false
  }
}

/**
 * Makes the Electron build in a folder of its own and only then puts it in place: keytar's
 * package is copied without its build (node_modules/keytar is never written), `build(root,
 * wanted)` compiles the copy under `root` (root/package.json names keytar; the copy is
 * root/node_modules/keytar), the stamp goes in last, and the folder is renamed over the old
 * side build. A build that fails leaves the old side build and Node's build as they were.
 */
export async function makeElectronSideBuild(modulesDir, wanted, build) {
  const finalRoot = path.join(modulesDir, SIDE_BUILD_ROOT)
  const partialRoot = `${finalRoot}.partial-${process.pid}`
  rmSync(partialRoot, { recursive: true, force: true })
  try {
    const source = path.join(modulesDir, 'keytar')
    const copy = path.join(partialRoot, 'node_modules', 'keytar')
    mkdirSync(path.dirname(copy), { recursive: true })
    cpSync(source, copy, { recursive: true, filter: (file) => path.relative(source, file) !== 'build' })
    writeFileSync(
      path.join(partialRoot, 'package.json'),
      `${JSON.stringify({ name: 'adops-native-electron', private: true, dependencies: { keytar: wanted.keytar } }, null, 2)}\n`,
    )
    await build(partialRoot, wanted)
    writeFileSync(path.join(partialRoot, 'build.json'), `${JSON.stringify(wanted, null, 2)}\n`)
    rmSync(finalRoot, { recursive: true, force: true })
    renameSync(partialRoot, finalRoot)
  } catch (error) {
    rmSync(partialRoot, { recursive: true, force: true })
    throw error
  }
}

/**
 * Compiles the copy for Electron with @electron/rebuild (what electron-builder's own rebuild
 * runs), from source: keytar's install script would otherwise fetch an unpinned prebuilt
 * binary. It fetches Electron's headers (once, cached in ~/.electron-gyp).
 */
export async function rebuildForElectron(root, wanted, modulesDir) {
  const fromBuilder = createRequire(path.join(modulesDir, 'app-builder-lib', 'package.json'))
  const { rebuild } = await import(pathToFileURL(fromBuilder.resolve('@electron/rebuild')).href)
  await rebuild({
    buildPath: root,
    electronVersion: wanted.electron,
    arch: wanted.arch,
    onlyModules: ['keytar'],
    force: true,
    buildFromSource: true,
    mode: 'sequential',
  })
}

function loadsInNode(root) {
  const probe = spawnSync(process.execPath, ['-e', "require('keytar')"], { cwd: root, encoding: 'utf8' })
  return probe.status === 0
}

function rebuildForNode(root) {
  console.error('Rebuilding keytar for Node…')
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  // From source: keytar's install script would otherwise download an unpinned prebuilt binary.
  execFileSync(npm, ['rebuild', 'keytar', '--build-from-source'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' })
}

async function main(target) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
  const modulesDir = path.dirname(path.dirname(createRequire(path.join(root, 'package.json')).resolve('keytar/package.json')))
  if (target === 'node') {
    if (!loadsInNode(root)) rebuildForNode(root)
    return
  }
  const wanted = wantedElectronBuild(modulesDir)
  if (!sideBuildIsCurrent(modulesDir, wanted)) {
    console.error(
      `Building keytar for Electron ${wanted.electron} into node_modules/${SIDE_BUILD_ROOT.split(path.sep).join('/')} (Node's build stays as it is)…`,
    )
    await makeElectronSideBuild(modulesDir, wanted, (buildRoot) => rebuildForElectron(buildRoot, wanted, modulesDir))
  }
  // A checkout from before the side build may hold an Electron build in keytar's own folder:
  // put Node's back once, so the command line works after `npm start` too. Not fatal for the app.
  if (!loadsInNode(root)) {
    try {
      rebuildForNode(root)
    } catch {
      console.error('keytar could not be rebuilt for Node: the app starts, but run `node build/native-deps.mjs node` before `npm run cli`.')
    }
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const target = process.argv[2]
  if (target !== 'node' && target !== 'electron') {
    console.error('usage: node build/native-deps.mjs node|electron')
    process.exit(2)
  }
  await main(target)
}
