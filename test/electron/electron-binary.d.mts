/** Types of test/electron/electron-binary.mjs, for the smoke spec and its unit test. */
export type ElectronBinary = { found: true; executable: string } | { found: false; reason: string }
export type SmokeRun = { action: 'run'; executable: string } | { action: 'skip' | 'fail'; line: string }
export function findElectronBinary(modulesDir: string, environment?: Record<string, string | undefined>): ElectronBinary
export function decideSmokeRun(binary: ElectronBinary, environment?: Record<string, string | undefined>): SmokeRun
