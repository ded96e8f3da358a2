/**
 * Electron's entry point. `adops-desk <command> …` (the packaged binary with a command) runs
 * the command line over the same services and exits; otherwise the app starts. All logic
 * lives in app.ts (lifecycle), electron/ (adapters), services/ (plain Node) and cli/.
 */
import path from 'node:path'
import * as electron from 'electron'
import { startApp } from './app'
import { isCliInvocation, runCli } from './cli/run'
import { runCommand } from './services/schedules/os-entries/installer'
import { loadKeytar } from './services/secrets/keychain'

// Packaged: [binary, ...args]; from source (`electron .`): [electron, '.', ...args].
const cliArguments = process.argv.slice(electron.app.isPackaged ? 1 : 2)

if (isCliInvocation(cliArguments)) {
  const controller = new AbortController()
  process.once('SIGINT', () => controller.abort())
  void runCli({ argv: cliArguments, env: process.env, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, signal: controller.signal }).then(
    (code) => electron.app.exit(code),
  )
} else {
  startApp(electron, {
    mainDir: import.meta.dirname,
    rendererDevUrl: process.env.ELECTRON_RENDERER_URL,
    openKeychain: loadKeytar,
    argv: process.argv,
    processEvents: process,
    runSchedulerCommand: runCommand,
    // The demo backend runs in a worker thread (its own event loop: a heavy demo report never
    // freezes the app) from the file the build emits beside this one. Both the small client
    // (a dynamic import) and the worker are loaded only when the demo opens.
    loadSandbox: async () => {
      const { sandboxInWorker, BUILT_WORKER_FILE } = await import('./sandbox/in-worker')
      return sandboxInWorker(path.join(import.meta.dirname, BUILT_WORKER_FILE))
    },
  }).catch((error: unknown) => {
    electron.dialog.showErrorBox('AdOps Desk could not start', error instanceof Error ? error.message : String(error))
    electron.app.exit(1)
  })
}
