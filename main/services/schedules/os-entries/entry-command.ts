/**
 * The command line the OS entry runs: this very install's program with `schedules run-due`,
 * and the data folder the app uses, so the command line reads the same schedules and ledger.
 *
 * - the packaged app: its own binary takes a command as its first argument (main/index.ts); an
 *   AppImage is started through the AppImage file (`APPIMAGE`), not the mount point it runs
 *   from, which changes at every start;
 * - Electron from a checkout (`electron .`): Electron, the app folder, then the command;
 * - plain Node (the web host, the built command line): Node and out/cli/index.js.
 */
export interface SelfLaunch {
  /** process.execPath */
  execPath: string
  /** The packaged app (Electron's app.isPackaged). */
  packaged: boolean
  /** `electron .`'s app folder; null in the packaged app and in plain Node. */
  appPath: string | null
  /** The built command line (out/cli/index.js) for plain Node; null under Electron. */
  cliScript: string | null
  env: Record<string, string | undefined>
}

export function runDueCommand(launch: SelfLaunch, userDataDir: string): string[] {
  const tail = ['schedules', 'run-due', '--user-data', userDataDir]
  if (launch.packaged) return [launch.env.APPIMAGE ?? launch.execPath, ...tail]
  if (launch.appPath !== null) return [launch.execPath, launch.appPath, ...tail]
  if (launch.cliScript !== null) return [launch.execPath, launch.cliScript, ...tail]
  throw new Error('runDueCommand: no way to start the command line was given')
}
