import type { Connection } from '../services/connection/connection'
import type { ApiNeeded } from './connection-flags'
import type { CliIo } from './io'
import type { OptionName, OptionValues } from './options'
import type { CliServices } from './services'

export interface CommandContext {
  values: OptionValues
  /** The positional arguments after the command's words, as many as `args` names. */
  args: string[]
  io: CliIo
  signal: AbortSignal | undefined
  services: CliServices
  /** Signs in lazily, on the first API call. */
  connect(): Promise<Connection>
}

export interface Command {
  group: string
  name: string
  /** Names of the positional arguments, for help and for counting. */
  args: readonly string[]
  /** Flags of this command beyond the global ones (and the connection ones when it connects). */
  options: readonly OptionName[]
  connection: ApiNeeded | null
  summary: string
  /** Extra lines for `--help`. */
  notes?: readonly string[]
  /** What an option means for this command where it differs from the shared meaning (`boards export --format`: pdf or png). */
  optionHelp?: Partial<Record<OptionName, string>>
  /** Resolves to the exit code when it is not 0 on success (`alerts check`: 3 when a rule fired; `entities import`: 4 when rows had errors). */
  run(context: CommandContext): Promise<number | void>
}

/** How the command is typed: `report run`, or `pivot` for a one-word command (its name is empty). */
export function commandWords(command: Pick<Command, 'group' | 'name'>): string {
  return command.name === '' ? command.group : `${command.group} ${command.name}`
}
