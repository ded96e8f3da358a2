import path from 'node:path'

/** The product name: Electron derives the user-data folder from it, and the keychain files secrets under it. */
export const APP_NAME = 'AdOps Desk'
export const KEYCHAIN_SERVICE = 'AdOps Desk'

/**
 * Where Electron's `app.getPath('userData')` points for this app, computed without Electron
 * so the command line and the app share one profile store.
 */
export function defaultUserDataDir(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, home: string): string {
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), APP_NAME)
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', APP_NAME)
  return path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), APP_NAME)
}
