/** Types of keytar-builds.mjs (which keytar build a process loads, and why). */
export type BuildFact = 'electron' | 'keytar' | 'platform' | 'arch'
/** What a build was made for, as the side build's build.json says. */
export type KeytarBuildTarget = Record<BuildFact, string>

/** The running process, as far as the choice of a build goes. */
export interface KeytarRuntime {
  /** process.versions.electron: absent in plain Node (tests, command line, web host). */
  electron?: string | undefined
  platform: string
  arch: string
}

export interface KeytarFacts {
  runtime: KeytarRuntime
  /** node_modules/keytar's version (null when unread, always in plain Node). */
  keytar: string | null
  /** The side build's stamp, null when there is none or it is unreadable. */
  sideBuild: KeytarBuildTarget | null
  /** Whether the side build's copy of the keytar package is there. */
  sideBuildCopy: boolean
}

export type KeytarBuildChoice =
  | { build: 'package'; reason: 'plain-node' | 'no-side-build' | 'side-build-incomplete' }
  | { build: 'package'; reason: 'side-build-for-another'; differences: BuildFact[] }
  | { build: 'electron-side-build'; reason: 'side-build-current' }

export const SIDE_BUILD_ROOT: string
export const SIDE_BUILD_KEYTAR: string
export const SIDE_BUILD_STAMP: string
export const BUILD_FACTS: readonly BuildFact[]
export function readSideBuildStamp(modulesDir: string): KeytarBuildTarget | null
export function sideBuildDifferences(stamp: KeytarBuildTarget, wanted: Record<BuildFact, string | null>): BuildFact[]
export function readKeytarFacts(modulesDir: string, runtime: KeytarRuntime): KeytarFacts
export function chooseKeytarBuild(facts: KeytarFacts): KeytarBuildChoice
