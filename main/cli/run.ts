import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import type { Readable, Writable } from 'node:stream'
import { AppError, isAppError } from '../services/errors'
import { defaultUserDataDir, KEYCHAIN_SERVICE } from '../services/app-identity'
import type { Connection } from '../services/connection/connection'
import { createLogFile } from '../services/logs/log-file'
import { createLogger, type Logger } from '../services/logs/logger'
import { commandWords, type Command } from './command'
import { alertCommands } from './commands/alerts'
import { changeCommands } from './commands/changes'
import { boardCommands } from './commands/boards'
import { analysisCommands } from './commands/analysis'
import { entityCommands } from './commands/entities'
import { profileCommands } from './commands/profiles'
import { presetCommands, reportRunCommands } from './commands/presets'
import { reportCommands } from './commands/report'
import { scheduleCommands } from './commands/schedules'
import { resolveConnection } from './connection-flags'
import { commandHelp, groupHelp, PROGRAM, programHelp } from './help'
import { writeSentence, writeText } from './io'
import { connectionOptions, globalOptions, optionSpecs, type OptionName, type OptionValues } from './options'
import { createRedactor } from './redact'
import type { CliServices, CliServicesFactory } from './services'
import { UsageError } from './usage'

export const commands: readonly Command[] = [
  ...profileCommands,
  ...presetCommands,
  ...boardCommands,
  ...entityCommands,
  ...changeCommands,
  ...reportCommands,
  ...reportRunCommands,
  ...scheduleCommands,
  ...alertCommands,
  ...analysisCommands,
]

/** Whether arguments given to the app's binary name a command (then it runs as the command line, without a window). */
export function isCliInvocation(argv: readonly string[]): boolean {
  const first = argv[0]
  if (first === undefined) return false
  if (first === 'help' || first === '--help' || first === '-h') return true
  return commands.some((command) => command.group === first)
}

export const EXIT_OK = 0
export const EXIT_FAILURE = 1
export const EXIT_USAGE = 2
/** Interrupted by Ctrl-C (128 + SIGINT), as shells expect. */
export const EXIT_INTERRUPTED = 130

export interface CliDeps {
  argv: readonly string[]
  env: Record<string, string | undefined>
  stdin: Readable
  stdout: Writable
  stderr: Writable
  /** Cancels the running command (the entry aborts it on Ctrl-C). */
  signal?: AbortSignal
  services?: CliServicesFactory
  platform?: NodeJS.Platform
  homeDir?: string
}

interface Invocation {
  command: Command
  values: OptionValues
  args: string[]
}

type Parsed = { help: string } | Invocation

/** Flags whose value may start with a minus (`--sort -revenue`: largest first), which parseArgs would take for a flag. */
const SIGNED_VALUE_FLAGS = new Set(['--sort'])

function withSignedValues(argv: readonly string[]): string[] {
  const joined: string[] = []
  for (let index = 0; index < argv.length; index++) {
    const word = argv[index] ?? ''
    const next = argv[index + 1]
    if (SIGNED_VALUE_FLAGS.has(word) && next !== undefined && /^-[^-]/.test(next)) {
      joined.push(`${word}=${next}`)
      index++
    } else joined.push(word)
  }
  return joined
}

function parse(argv: readonly string[]): Parsed {
  let parsed: { values: OptionValues; positionals: string[] }
  try {
    parsed = parseArgs({ args: withSignedValues(argv), options: optionSpecs, allowPositionals: true, strict: true }) as {
      values: OptionValues
      positionals: string[]
    }
  } catch (error) {
    // parseArgs explains itself ("Unknown option '--nope'"); keep its first line.
    throw new UsageError((error as Error).message.split('\n')[0] ?? 'The arguments could not be read.')
  }
  const { values } = parsed
  let positionals = parsed.positionals
  let help = values.help === true
  if (positionals[0] === 'help') {
    help = true
    positionals = positionals.slice(1)
  }

  const [group] = positionals
  if (group === undefined) {
    if (help) return { help: programHelp(commands) }
    throw new UsageError('No command given.')
  }
  if (!commands.some((command) => command.group === group)) throw new UsageError(`Unknown command "${group}".`)
  // A one-word command (`pivot FILE`, `sql FILE...`) has no name: everything after the word is arguments.
  const single = commands.find((command) => command.group === group && command.name === '')
  const [name, ...args] = single === undefined ? positionals.slice(1) : ['', ...positionals.slice(1)]
  if (name === undefined) {
    if (help) return { help: groupHelp(group, commands) }
    throw new UsageError(`"${group}" needs a command.`, group)
  }
  const command = commands.find((candidate) => candidate.group === group && candidate.name === name)
  if (command === undefined) throw new UsageError(`Unknown command "${group} ${name}".`, group)
  if (help) return { help: commandHelp(command) }

  const where = commandWords(command)
  const allowed = new Set<OptionName>([...globalOptions, ...command.options, ...(command.connection === null ? [] : connectionOptions)])
  for (const option of Object.keys(values) as OptionName[]) {
    if (!allowed.has(option)) throw new UsageError(`--${option} is not an option of "${where}".`, where)
  }
  // An argument written [like-this] may be left out.
  const required = command.args.filter((name) => !name.startsWith('['))
  if (args.length < required.length) throw new UsageError(`"${where}" needs ${required.slice(args.length).join(' ')}.`, where)
  // A last argument spelled `FILE...` takes one or more.
  const variadic = command.args.at(-1)?.endsWith('...') === true
  if (args.length > command.args.length && !variadic) throw new UsageError(`Unexpected argument "${args[command.args.length] ?? ''}" for "${where}".`, where)
  return { command, values, args }
}

/** The bracketed facts after an error sentence: the HTTP code and API status, or the network error code. */
function facts(error: AppError): string {
  const details = error.details ?? {}
  const parts: string[] = []
  if (typeof details.httpStatus === 'number') parts.push(`HTTP ${details.httpStatus}`)
  if (typeof details.apiStatus === 'string') parts.push(`status ${details.apiStatus}`)
  if (parts.length === 0 && typeof details.errorCode === 'string') parts.push(details.errorCode)
  return parts.length === 0 ? '' : ` [${parts.join(', ')}]`
}

const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, ' ').trim()

/** Runs one command. Never throws: the outcome is the exit code, with at most one error line on stderr. */
export async function runCli(deps: CliDeps): Promise<number> {
  const { env, stdout, stderr } = deps
  // Every line on stderr passes through this: no message, whoever wrote it, prints a secret or a control character.
  const redactor = createRedactor([env.ADOPS_PASSWORD, env.ADOPS_TOKEN])
  const errorLine = async (text: string): Promise<void> => {
    await writeSentence(stderr, `${PROGRAM}: ${redactor.redact(oneLine(text))}\n`).catch(() => undefined)
  }
  // A closed pipe on stdout (`| head`) must end the command, not crash it with an unhandled 'error'.
  let outputClosed = false
  const onOutputError = (): void => {
    outputClosed = true
  }
  stdout.on('error', onOutputError)

  let services: CliServices | null = null
  let where: string | null = null
  // The app's log folder in the user data (the CLI has no Electron to ask), its own file: one line per command.
  let log: Logger | null = null
  try {
    const parsed = parse(deps.argv)
    if ('help' in parsed) {
      await writeText(stdout, parsed.help)
      return EXIT_OK
    }
    const { command, values, args } = parsed
    where = commandWords(command)
    const given = (value: string | undefined): string | undefined => (value === undefined || value.trim() === '' ? undefined : value)
    const userDataDir =
      given(values['user-data']) ?? given(env.ADOPS_USER_DATA) ?? defaultUserDataDir(deps.platform ?? process.platform, env, deps.homeDir ?? os.homedir())
    log = createLogger({ file: createLogFile({ folder: path.join(userDataDir, 'logs'), name: 'cli' }) })
    log.addSecret(env.ADOPS_PASSWORD)
    log.addSecret(env.ADOPS_TOKEN)
    // Loaded only once a command runs: --help and usage errors start without the HTTP client and the keychain.
    const factory = deps.services ?? (await import('./services')).createCliServices
    const ready: CliServices = factory({
      userDataDir,
      keychainService: given(env.ADOPS_KEYCHAIN_SERVICE) ?? KEYCHAIN_SERVICE,
      warn: (message) => void writeSentence(stderr, `${PROGRAM}: warning: ${redactor.redact(oneLine(message))}\n`).catch(() => undefined),
    })
    services = ready
    let connection: Promise<Connection> | null = null
    const api = command.connection
    const exitCode = await command.run({
      values,
      args,
      io: { stdin: deps.stdin, stdout, stderr },
      signal: deps.signal,
      services: ready,
      connect() {
        if (api === null) throw new AppError('internal', `"${commandWords(command)}" does not connect.`)
        connection ??= resolveConnection(values, env, ready, api).then(({ settings, credentials }) =>
          ready.connect(settings, async () => {
            // A saved connection's secret is known only once read from the keychain.
            const read = await credentials()
            redactor.add(read.method === 'password' ? read.password : read.token)
            log?.addSecret(read.method === 'password' ? read.password : read.token)
            return read
          }),
        )
        return connection
      },
    })
    log.info(`cli ${where}: ok${typeof exitCode === 'number' ? ` (exit ${exitCode})` : ''}`)
    return typeof exitCode === 'number' ? exitCode : EXIT_OK
  } catch (error) {
    if (log !== null) {
      if (isAppError(error)) log.warn(`cli ${where}: ${error.message}`, { code: error.code, details: error.details })
      else if (!(error instanceof UsageError) && !outputClosed)
        log.error(`cli ${where}: ${error instanceof Error ? error.message : String(error)}`, { stack: error instanceof Error ? error.stack : undefined })
    }
    if (outputClosed) return EXIT_OK
    if (error instanceof UsageError) {
      const about = error.command ?? where
      const help = about === null ? `${PROGRAM} --help` : `${PROGRAM} ${about} --help`
      await errorLine(`${error.message} See "${help}".`)
      return EXIT_USAGE
    }
    if (isAppError(error) && error.code === 'cancelled' && deps.signal?.aborted === true) {
      await errorLine('Interrupted.')
      return EXIT_INTERRUPTED
    }
    if (isAppError(error)) {
      await errorLine(`${error.message}${facts(error)}`)
      return EXIT_FAILURE
    }
    await errorLine(`Something went wrong inside AdOps Desk: ${error instanceof Error ? error.message : String(error)}`)
    return EXIT_FAILURE
  } finally {
    stdout.off('error', onOutputError)
    await services?.close().catch(() => undefined)
    await log?.flush()
  }
}
