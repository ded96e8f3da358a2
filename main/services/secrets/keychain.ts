import { createRequire } from 'node:module'
import path from 'node:path'
import { chooseKeytarBuild, readKeytarFacts, SIDE_BUILD_KEYTAR, type KeytarRuntime } from './keytar-builds.mjs'

/**
 * The OS keychain as the secret store sees it: one secret per (service, account), nothing
 * more. keytar is the implementation today; anything offering these three calls (a maintained
 * successor, a test's in-memory map, a failing one for the "unavailable" path) can replace it.
 * No call lists or bulk-reads secrets: the store never needs to see a secret it was not asked for.
 */
export interface Keychain {
  /** The secret, or null when there is none under that account. */
  getPassword(service: string, account: string): Promise<string | null>
  setPassword(service: string, account: string, password: string): Promise<void>
  /** Whether there was an entry to delete. */
  deletePassword(service: string, account: string): Promise<boolean>
}

/**
 * keytar's module: a Keychain, plus the listing tests use to read and clean up their own
 * service's entries. The app never lists: findCredentials crashes its process when another
 * process deletes an item of that service meanwhile (test/support/keychain.ts says how).
 */
export interface Keytar extends Keychain {
  findCredentials(service: string): Promise<Array<{ account: string; password: string }>>
}

export interface LoadKeytarOptions {
  runtime?: KeytarRuntime
  /** The folder holding node_modules/keytar (found from this module when not given). */
  modulesDir?: string | null
  /** keytar's own package: the default import, the way the Node side has always loaded it. */
  importPackage?: () => Promise<unknown>
}

/**
 * Loads keytar lazily: a missing or mis-built native module (or no Secret Service on a
 * Linux desktop) must not stop the app from starting; the secret store reports it instead.
 * Which build this process loads, and why, is keytar-builds.mjs's choice.
 */
export async function loadKeytar(options: LoadKeytarOptions = {}): Promise<Keytar> {
  const runtime = options.runtime ?? { electron: process.versions.electron, platform: process.platform, arch: process.arch }
  const modulesDir = options.modulesDir === undefined ? keytarModulesDir() : options.modulesDir
  if (modulesDir !== null && chooseKeytarBuild(readKeytarFacts(modulesDir, runtime)).build === 'electron-side-build') {
    return createRequire(import.meta.url)(path.join(modulesDir, SIDE_BUILD_KEYTAR)) as Keytar
  }
  const module = (await (options.importPackage ?? (() => import('keytar')))()) as { default?: Keytar } & Keytar
  return module.default ?? module
}

/** node_modules, as seen from this module; null where keytar cannot be resolved (it is reported at import). */
function keytarModulesDir(): string | null {
  try {
    return path.dirname(path.dirname(createRequire(import.meta.url).resolve('keytar/package.json')))
  } catch {
    return null
  }
}
