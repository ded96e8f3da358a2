/**
 * Electron's entry point: hands the real electron module to startApp. All logic lives in
 * app.ts (lifecycle), electron/ (adapters) and services/ (plain Node).
 */
import * as electron from 'electron'
import { startApp } from './app'
import { loadKeytar } from './services/secrets/keychain'
import { startSandbox } from './sandbox'

startApp(electron, {
  mainDir: import.meta.dirname,
  rendererDevUrl: process.env.ELECTRON_RENDERER_URL,
  openKeychain: loadKeytar,
  // The demo backend listens on loopback only.
  startSandbox: ({ port }) => startSandbox({ port, host: '127.0.0.1' }),
}).catch((error: unknown) => {
  electron.dialog.showErrorBox('AdOps Desk could not start', error instanceof Error ? error.message : String(error))
  electron.app.exit(1)
})
