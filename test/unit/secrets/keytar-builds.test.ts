import { promises as fs } from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadKeytar } from '../../../main/services/secrets/keychain'
import {
  chooseKeytarBuild,
  readKeytarFacts,
  SIDE_BUILD_KEYTAR,
  SIDE_BUILD_STAMP,
  type KeytarBuildTarget,
  type KeytarFacts,
} from '../../../main/services/secrets/keytar-builds.mjs'
import { temporaryFolder } from '../../support/services'

// Which keytar build a process loads, from the facts of the process and of node_modules, each
// injected: no Electron runs, and the "builds" are text files a fake keytar wrapper returns.

const inElectron = { electron: '45.4.1', platform: 'linux', arch: 'x64' }
const inNode = { electron: undefined, platform: 'linux', arch: 'x64' }
const madeForThisApp: KeytarBuildTarget = { electron: '45.4.1', keytar: '7.9.0', platform: 'linux', arch: 'x64' }

function facts(overrides: Partial<KeytarFacts>): KeytarFacts {
  return { runtime: inElectron, keytar: '7.9.0', sideBuild: madeForThisApp, sideBuildCopy: true, ...overrides }
}

describe('which keytar build a process loads', () => {
  it("plain Node (the command line, the web host, tests) loads keytar's own, whatever sits beside it", () => {
    expect(chooseKeytarBuild(facts({ runtime: inNode }))).toEqual({ build: 'package', reason: 'plain-node' })
  })

  it("Electron with no side build (the packaged app, a checkout never started with npm start) loads keytar's own", () => {
    expect(chooseKeytarBuild(facts({ sideBuild: null, sideBuildCopy: false }))).toEqual({ build: 'package', reason: 'no-side-build' })
  })

  it("Electron with a side build made for another Electron, keytar, platform or architecture loads keytar's own, saying which", () => {
    const another = (fact: keyof KeytarBuildTarget, value: string) => chooseKeytarBuild(facts({ sideBuild: { ...madeForThisApp, [fact]: value } }))
    expect(another('electron', '44.0.0')).toEqual({ build: 'package', reason: 'side-build-for-another', differences: ['electron'] })
    expect(another('keytar', '7.8.0')).toEqual({ build: 'package', reason: 'side-build-for-another', differences: ['keytar'] })
    expect(another('platform', 'darwin')).toEqual({ build: 'package', reason: 'side-build-for-another', differences: ['platform'] })
    expect(another('arch', 'arm64')).toEqual({ build: 'package', reason: 'side-build-for-another', differences: ['arch'] })
    // keytar's own package unreadable: no side build can be said to match it.
    expect(chooseKeytarBuild(facts({ keytar: null }))).toEqual({ build: 'package', reason: 'side-build-for-another', differences: ['keytar'] })
  })

  it("Electron with a matching stamp but no copy of keytar beside it loads keytar's own", () => {
    expect(chooseKeytarBuild(facts({ sideBuildCopy: false }))).toEqual({ build: 'package', reason: 'side-build-incomplete' })
  })

  it('Electron loads the side build made for exactly it (npm start from a checkout)', () => {
    expect(chooseKeytarBuild(facts({}))).toEqual({ build: 'electron-side-build', reason: 'side-build-current' })
  })
})

describe("the facts, read from node_modules and the process's versions", () => {
  let modulesDir: string
  beforeEach(async () => {
    modulesDir = await temporaryFolder('adops-keytar-builds-')
  })
  afterEach(async () => {
    await fs.rm(modulesDir, { recursive: true, force: true })
  })

  async function write(relative: string, text: string): Promise<void> {
    await fs.mkdir(path.dirname(path.join(modulesDir, relative)), { recursive: true })
    await fs.writeFile(path.join(modulesDir, relative), text)
  }

  /** keytar's own package (its wrapper returns its binary's text) and, unless told, the side build's copy and stamp. */
  async function fakeModules(stamp: string | null = JSON.stringify(madeForThisApp), copy = true): Promise<void> {
    const wrapper = "module.exports = { loaded: require('fs').readFileSync(require('path').join(__dirname, 'keytar.node'), 'utf8') }\n"
    await write(path.join('keytar', 'package.json'), JSON.stringify({ name: 'keytar', version: '7.9.0', main: 'wrapper.js' }))
    if (copy) {
      await write(path.join(SIDE_BUILD_KEYTAR, 'package.json'), JSON.stringify({ name: 'keytar', version: '7.9.0', main: 'wrapper.js' }))
      await write(path.join(SIDE_BUILD_KEYTAR, 'wrapper.js'), wrapper)
      await write(path.join(SIDE_BUILD_KEYTAR, 'keytar.node'), 'built for Electron')
    }
    if (stamp !== null) await write(SIDE_BUILD_STAMP, stamp)
  }

  const packageKeytar = { loaded: 'keytar’s own package' }
  const importPackage = async (): Promise<unknown> => ({ default: packageKeytar })

  it('reads nothing in plain Node, and the stamp, the copy and keytar’s version in Electron', async () => {
    await fakeModules()
    expect(readKeytarFacts(modulesDir, inNode)).toEqual({ runtime: inNode, keytar: null, sideBuild: null, sideBuildCopy: false })
    expect(readKeytarFacts(modulesDir, inElectron)).toEqual({ runtime: inElectron, keytar: '7.9.0', sideBuild: madeForThisApp, sideBuildCopy: true })
  })

  it('takes a stamp that is not JSON, or lacks a fact, as no side build', async () => {
    await fakeModules('{ not json')
    expect(readKeytarFacts(modulesDir, inElectron).sideBuild).toBeNull()
    await fakeModules(JSON.stringify({ electron: '45.4.1', platform: 'linux', arch: 'x64' }))
    expect(readKeytarFacts(modulesDir, inElectron).sideBuild).toBeNull()
  })

  it("loads keytar's own in Electron when the side build was made for another keytar", async () => {
    await fakeModules(JSON.stringify({ ...madeForThisApp, keytar: '7.8.0' }))
    expect(await loadKeytar({ runtime: inElectron, modulesDir, importPackage })).toBe(packageKeytar)
  })

  it("loads keytar's own in Electron when the stamp is there but the copy is not", async () => {
    await fakeModules(JSON.stringify(madeForThisApp), false)
    expect(await loadKeytar({ runtime: inElectron, modulesDir, importPackage })).toBe(packageKeytar)
  })

  it('loads the side build in the Electron it was made for', async () => {
    await fakeModules()
    expect(await loadKeytar({ runtime: inElectron, modulesDir, importPackage })).toEqual({ loaded: 'built for Electron' })
  })
})
