/** Types of build/check-prerequisites.mjs, for the test that feeds it a fake machine. */
export interface PrerequisiteEnvironment {
  platform: string
  nodeVersion: string
  hasCommand(name: string): boolean
  exists(path: string): boolean
  keytarLoads(): boolean
  keytarBuildable(): boolean
  playwrightChromium(): string | null
  installPlaywrightChromium(): boolean
}
export const SYSTEM_CHROMIUM: string
export const SYSTEM_BROWSERS: readonly string[]
export function systemBrowser(exists?: (file: string) => boolean): string | undefined
export const MINIMUM_NODE: [number, number]
export function findMissingPrerequisite(environment: PrerequisiteEnvironment): string | null
export function realEnvironment(root?: string): PrerequisiteEnvironment
