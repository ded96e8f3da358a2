/**
 * Electron's entry point. `adops-desk <command> …` (the packaged binary with a command) runs
 * the command line over the same services and exits; otherwise the app starts. All logic
 * lives in app.ts (lifecycle), electron/ (adapters), services/ (plain Node) and cli/.
 */
import * as electron from 'electron'
import { startApp } from './app'
import { isCliInvocation, runCli } from './cli/run'
import { loadKeytar } from './services/secrets/keychain'

// Packaged: [binary, ...args]; from source (`electron .`): [electron, '.', ...args].
const cliArguments = process.argv.slice(electron.app.isPackaged ? 1 : 2)

if (isCliInvocation(cliArguments)) {
  const controller = new AbortController()
  process.once('SIGINT', () => controller.abort())
  void runCli({ argv: cliArguments, env: process.env, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, signal: controller.signal }).then((code) =>
    electron.app.exit(code),
  )
} else {
  startApp(electron, {
    mainDir: import.meta.dirname,
    rendererDevUrl: process.env.ELECTRON_RENDERER_URL,
    openKeychain: loadKeytar,
    argv: process.argv,
    // A dynamic import: the build keeps the sandbox in its own chunk, read only when the demo opens.
    loadSandbox: () => import('./sandbox'),
  }).catch((error: unknown) => {
    electron.dialog.showErrorBox('AdOps Desk could not start', error instanceof Error ? error.message : String(error))
    electron.app.exit(1)
  })
}
