import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'

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

/** keytar's module: a Keychain, plus the listing tests use to clean up their own service's entries. */
export interface Keytar extends Keychain {
  findCredentials(service: string): Promise<Array<{ account: string; password: string }>>
}

/**
 * Where build/native-deps.mjs keeps keytar built for Electron, beside (never instead of) the
 * Node build in node_modules/keytar: a whole copy of the keytar package, so its own wrapper
 * loads its own binary. Relative to the folder holding node_modules/keytar.
 */
export const ELECTRON_KEYTAR_DIR = path.join('.adops-native', 'electron', 'node_modules', 'keytar')
/** Beside the copy: what it was built for (written last, so a half-made copy has none). */
export const ELECTRON_KEYTAR_STAMP = path.join('.adops-native', 'electron', 'build.json')

/** What a build is for, as native-deps writes it and as the running process knows itself. */
export interface NativeTarget {
  electron: string
  platform: string
  arch: string
}

/** The running process, as far as the choice of a native build goes. */
export interface KeytarRuntime {
  /** process.versions.electron: absent in plain Node (tests, CLI, web host). */
  electron?: string | undefined
  platform: string
  arch: string
}

/**
 * Which keytar this process loads: the side build when it runs in Electron and the side build
 * was made for exactly this Electron on this platform and architecture (`npm start` from a
 * checkout); otherwise keytar's own (plain Node; the packaged app, whose keytar
 * electron-builder built for its Electron; or a checkout whose side build is missing or stale,
 * where keytar's own is the best there is and the secret store reports it if it fails).
 */
export function chooseKeytar(runtime: KeytarRuntime, sideBuild: NativeTarget | null): 'electron-side-build' | 'package' {
  if (runtime.electron === undefined || sideBuild === null) return 'package'
  const matches = sideBuild.electron === runtime.electron && sideBuild.platform === runtime.platform && sideBuild.arch === runtime.arch
  return matches ? 'electron-side-build' : 'package'
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
 * In Electron from a checkout it takes the Electron build native-deps keeps aside, so
 * `npm start` and `npm run cli` (plain Node) each find a build for themselves and neither
 * rebuilds over the other.
 */
export async function loadKeytar(options: LoadKeytarOptions = {}): Promise<Keytar> {
  const runtime = options.runtime ?? { electron: process.versions.electron, platform: process.platform, arch: process.arch }
  const modulesDir = options.modulesDir === undefined ? keytarModulesDir() : options.modulesDir
  if (modulesDir !== null && chooseKeytar(runtime, readSideBuild(modulesDir)) === 'electron-side-build') {
    return createRequire(import.meta.url)(path.join(modulesDir, ELECTRON_KEYTAR_DIR)) as Keytar
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

/** The side build's stamp, or null when there is none (or it cannot be read: then keytar's own is used). */
function readSideBuild(modulesDir: string): NativeTarget | null {
  try {
    const stamp = JSON.parse(readFileSync(path.join(modulesDir, ELECTRON_KEYTAR_STAMP), 'utf8')) as Partial<NativeTarget>
    const { electron, platform, arch } = stamp
    return typeof electron === 'string' && typeof platform === 'string' && typeof arch === 'string' ? { electron, platform, arch } : null
  } catch {
    return null
  }
}
