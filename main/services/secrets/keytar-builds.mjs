// keytar's builds, and which one a process loads: the one place that knows (types in
// keytar-builds.d.mts; plain JavaScript so build/native-deps.mjs, run by plain Node before
// anything is compiled, reads the same places and the same rule as the loader in keychain.ts).
//
// keytar is native code, compiled by node-gyp against a runtime's headers. A checkout keeps two
// builds side by side, and a process loads exactly one:
// - keytar's own, node_modules/keytar/build/Release, which npm builds for the Node running npm:
//   the command line, the web host and the tests run in that Node. The packaged app loads it
//   too: electron-builder rebuilds node_modules/keytar in place for its Electron and packs no
//   side build.
// - the side build, node_modules/.adops-native/electron: a whole copy of the keytar package
//   (its own wrapper loads its own binary), compiled for Electron by build/native-deps.mjs at
//   `npm start`, with build.json saying what it was made for, written last. The app started
//   from a checkout loads it when build.json names this very Electron, keytar, platform and
//   architecture; a side build that is missing, half-made or for something else is not loaded,
//   and keytar's own is the best there is (the secret store reports it if it fails to load).
// Neither build ever replaces the other, so `npm start` and `npm run cli` each find their own.
//
// keytar 7 is a Node-API module: its keytar.node imports only napi_* functions (no V8 or Node
// symbols), so a build is not tied to one runtime's ABI the way a NAN module's is. The side
// build predates that knowledge and stays until an Electron run on a desktop shows keytar's own
// build loading there (docs/decisions/keychain.md).
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'

/** Relative to node_modules: the side build's folder, its copy of keytar, and its stamp. */
export const SIDE_BUILD_ROOT = path.join('.adops-native', 'electron')
export const SIDE_BUILD_KEYTAR = path.join(SIDE_BUILD_ROOT, 'node_modules', 'keytar')
export const SIDE_BUILD_STAMP = path.join(SIDE_BUILD_ROOT, 'build.json')

/** What a build is made for; a side build is loaded only when all four are this process's. */
export const BUILD_FACTS = /** @type {const} */ (['electron', 'keytar', 'platform', 'arch'])

/** The side build's stamp, or null when there is none or it cannot be read (then it is no side build). */
export function readSideBuildStamp(modulesDir) {
  try {
    const stamp = JSON.parse(readFileSync(path.join(modulesDir, SIDE_BUILD_STAMP), 'utf8'))
    return BUILD_FACTS.every((fact) => typeof stamp?.[fact] === 'string') ? Object.fromEntries(BUILD_FACTS.map((fact) => [fact, stamp[fact]])) : null
  } catch {
    return null
  }
}

/** The facts of `wanted` the stamp does not share (empty: made for exactly that). */
export function sideBuildDifferences(stamp, wanted) {
  return BUILD_FACTS.filter((fact) => stamp[fact] !== wanted[fact])
}

/** keytar's version as installed in node_modules, or null when its package cannot be read. */
function installedKeytarVersion(modulesDir) {
  try {
    const version = JSON.parse(readFileSync(path.join(modulesDir, 'keytar', 'package.json'), 'utf8')).version
    return typeof version === 'string' ? version : null
  } catch {
    return null
  }
}

/**
 * What the choice depends on, read from node_modules for a process (`runtime.electron` is
 * process.versions.electron, absent in plain Node). Nothing more is read in plain Node.
 */
export function readKeytarFacts(modulesDir, runtime) {
  if (runtime.electron === undefined) return { runtime, keytar: null, sideBuild: null, sideBuildCopy: false }
  return {
    runtime,
    keytar: installedKeytarVersion(modulesDir),
    sideBuild: readSideBuildStamp(modulesDir),
    sideBuildCopy: existsSync(path.join(modulesDir, SIDE_BUILD_KEYTAR, 'package.json')),
  }
}

/** Which build a process with these facts loads, and why (each reason is one branch above). */
export function chooseKeytarBuild({ runtime, keytar, sideBuild, sideBuildCopy }) {
  if (runtime.electron === undefined) return { build: 'package', reason: 'plain-node' }
  if (sideBuild === null) return { build: 'package', reason: 'no-side-build' }
  const differences = sideBuildDifferences(sideBuild, { electron: runtime.electron, keytar, platform: runtime.platform, arch: runtime.arch })
  if (differences.length > 0) return { build: 'package', reason: 'side-build-for-another', differences }
  if (!sideBuildCopy) return { build: 'package', reason: 'side-build-incomplete' }
  return { build: 'electron-side-build', reason: 'side-build-current' }
}
