import { isLoopbackHost } from './http'
import type { SandboxOptions } from './index'

/** The sandbox command line's arguments (cli.ts), read without starting anything so tests can ask them in-process. */

export const USAGE = 'usage: sandbox [--port N] [--seed N] [--scale small|large] [--token-ttl SECONDS] [--host ADDRESS]'

export function parseArguments(argv: readonly string[]): SandboxOptions {
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

/** The warning a non-loopback --host gets (other machines can reach the demo credentials), or null. */
export function hostWarning(host: string | undefined): string | null {
  if (host === undefined || isLoopbackHost(host)) return null
  return (
    `sandbox: warning: --host ${host} is not a loopback address; other machines can reach this sandbox, ` +
    'its fixed demo credentials and its /__sandbox controls.'
  )
}
