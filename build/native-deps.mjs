#!/usr/bin/env node
// Makes keytar's builds right, and does nothing (no compiler, no download) when they already
// are. Which builds there are, where each lives and which process loads which is
// main/services/secrets/keytar-builds.mjs's to say; this script only compiles them:
//   node build/native-deps.mjs node      before tests: keytar's own build loads in this Node
//   node build/native-deps.mjs electron  before starting the app: the Electron side build is
//                                        there and current (and the Node one still loads)
import { execFileSync, spawnSync } from 'node:child_process'
import { cpSync, readFileSync, renameSync, rmSync, writeFileSync, mkdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { readKeytarFacts, chooseKeytarBuild, SIDE_BUILD_KEYTAR, SIDE_BUILD_ROOT, SIDE_BUILD_STAMP } from '../main/services/secrets/keytar-builds.mjs'

export { SIDE_BUILD_KEYTAR, SIDE_BUILD_ROOT, SIDE_BUILD_STAMP }

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

/** Whether the side build is there and the app, started for `wanted`, would load it. */
export function sideBuildIsCurrent(modulesDir, wanted) {
  const runtime = { electron: wanted.electron, platform: wanted.platform, arch: wanted.arch }
  const facts = { ...readKeytarFacts(modulesDir, runtime), keytar: wanted.keytar }
  return chooseKeytarBuild(facts).build === 'electron-side-build'
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
