/** Types of build/native-deps.mjs, for the test that runs its side-build logic in a temporary folder. */
import type { KeytarBuildTarget } from '../main/services/secrets/keytar-builds.mjs'

export type ElectronBuildTarget = KeytarBuildTarget
export const SIDE_BUILD_ROOT: string
export const SIDE_BUILD_KEYTAR: string
export const SIDE_BUILD_STAMP: string
export function wantedElectronBuild(modulesDir: string, platform?: string, arch?: string): ElectronBuildTarget
export function sideBuildIsCurrent(modulesDir: string, wanted: ElectronBuildTarget): boolean
export function makeElectronSideBuild(
  modulesDir: string,
  wanted: ElectronBuildTarget,
  build: (root: string, wanted: ElectronBuildTarget) => Promise<void>,
): Promise<void>
export function rebuildForElectron(root: string, wanted: ElectronBuildTarget, modulesDir: string): Promise<void>
