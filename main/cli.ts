/**
 * The command-line entry: `npm run --silent cli -- <command>` (and the packaged binary).
 * Everything else lives in main/cli, which takes its streams and services as arguments.
 */
import { runCli } from './cli/run'

const controller = new AbortController()
// Ctrl-C cancels the running request; a half-written export is removed before exit.
process.once('SIGINT', () => controller.abort())

process.exitCode = await runCli({
  argv: process.argv.slice(2),
  env: process.env,
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  signal: controller.signal,
})
