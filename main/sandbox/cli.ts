import { isLoopbackHost } from './http'
import { startSandbox } from './index'
import type { SandboxOptions } from './index'

/**
 * `npm run --silent sandbox -- --port 8787 [--seed N] [--scale small|large] [--token-ttl SECONDS]`
 * Prints exactly one JSON line (the SandboxInfo) on stdout, serves until SIGINT/SIGTERM.
 */

const USAGE = 'usage: sandbox [--port N] [--seed N] [--scale small|large] [--token-ttl SECONDS] [--host ADDRESS]'

function parseArguments(argv: readonly string[]): SandboxOptions {
  const options: SandboxOptions = {}
  const integer = (name: string, text: string | undefined, min: number, max: number): number => {
    if (text === undefined || !/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
      throw new Error(`${name} needs an integer from ${min} to ${max}, got ${text === undefined ? 'nothing' : `'${text}'`}`)
    }
    return Number(text)
  }
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] ?? ''
    const equals = argument.indexOf('=')
    const name = equals > 0 ? argument.slice(0, equals) : argument
    const value = (): string | undefined => (equals > 0 ? argument.slice(equals + 1) : argv[++index])
    switch (name) {
      case '--port':
        options.port = integer('--port', value(), 0, 65_535)
        break
      case '--seed':
        options.seed = integer('--seed', value(), 0, 4_294_967_295)
        break
      case '--token-ttl':
        options.tokenTtlSeconds = integer('--token-ttl', value(), 1, 31_536_000)
        break
      case '--scale': {
        const scale = value()
        if (scale !== 'small' && scale !== 'large') throw new Error(`--scale must be small or large, got ${scale === undefined ? 'nothing' : `'${scale}'`}`)
        options.scale = scale
        break
      }
      case '--host': {
        const host = value()
        if (!host) throw new Error('--host needs an address')
        options.host = host
        break
      }
      default:
        throw new Error(`unknown argument '${argument}'`)
    }
  }
  return options
}

async function main(): Promise<void> {
  let options: SandboxOptions
  try {
    options = parseArguments(process.argv.slice(2))
  } catch (error) {
    process.stderr.write(`sandbox: ${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`)
    process.exit(2)
  }
  if (options.host !== undefined && !isLoopbackHost(options.host)) {
    // Standard error, so the one JSON line on standard output stays machine-readable.
    process.stderr.write(
      `sandbox: warning: --host ${options.host} is not a loopback address; other machines can reach this sandbox, ` +
        'its fixed demo credentials and its /__sandbox controls.\n',
    )
  }
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
