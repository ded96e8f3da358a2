import { hostWarning, parseArguments, USAGE } from './cli-arguments'
import { startSandbox } from './index'
import type { SandboxOptions } from './index'

/**
 * `npm run --silent sandbox -- --port 8787 [--seed N] [--scale small|large] [--token-ttl SECONDS]`
 * Prints exactly one JSON line (the SandboxInfo) on stdout, serves until SIGINT/SIGTERM.
 */

async function main(): Promise<void> {
  let options: SandboxOptions
  try {
    options = parseArguments(process.argv.slice(2))
  } catch (error) {
    process.stderr.write(`sandbox: ${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`)
    process.exit(2)
  }
  const warning = hostWarning(options.host)
  // Standard error, so the one JSON line on standard output stays machine-readable.
  if (warning !== null) process.stderr.write(`${warning}\n`)
  const sandbox = await startSandbox(options)
  let closing = false
  const stop = (): void => {
    if (closing) return
    closing = true
    sandbox.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`sandbox: ${error instanceof Error ? error.message : String(error)}\n`)
        process.exit(1)
      },
    )
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
  // Printed only once the signals are handled: whoever reads this line may stop us at once.
  process.stdout.write(`${JSON.stringify(sandbox.info)}\n`)
}

main().catch((error: unknown) => {
  process.stderr.write(`sandbox: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
})
