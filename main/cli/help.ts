import { commandWords, type Command } from './command'
import { connectionOptions, globalOptions, optionHelp, optionSpecs, type OptionName } from './options'

export const PROGRAM = 'adops-desk'

function optionLines(names: readonly OptionName[], own: Command['optionHelp'] = {}): string[] {
  return names.map((name) => {
    // A switch (--dry-run, --progress) takes no value.
    const flag = name === 'help' ? '-h, --help' : optionSpecs[name].type === 'boolean' ? `--${name}` : `--${name} VALUE`
    return `  ${flag.padEnd(26)} ${own[name] ?? optionHelp[name]}`
  })
}

export function usageLine(command: Command): string {
  const args = command.args.length > 0 ? ` ${command.args.join(' ')}` : ''
  const options = command.options.length > 0 ? ' [options]' : ''
  const connection = command.connection === null ? '' : ' [connection]'
  return `${PROGRAM} ${commandWords(command)}${args}${options}${connection}`
}

export function commandHelp(command: Command): string {
  const lines = [`Usage: ${usageLine(command)}`, '', `${command.summary[0]?.toUpperCase() ?? ''}${command.summary.slice(1)}.`]
  if (command.notes !== undefined) lines.push('', ...command.notes)
  if (command.options.length > 0) lines.push('', 'Options:', ...optionLines(command.options, command.optionHelp))
  if (command.connection !== null)
    lines.push('', 'Connection (a saved profile, or flags with the secret in the environment):', ...optionLines(connectionOptions))
  lines.push('', 'Global options:', ...optionLines(globalOptions))
  lines.push(
    '',
    'Exit codes: 0 success, 1 API or network error, 2 usage error, 4 some rows had errors, failed or conflicted (entities import, changes revert), 130 interrupted.',
  )
  return `${lines.join('\n')}\n`
}

export function groupHelp(group: string, commands: readonly Command[]): string {
  const mine = commands.filter((command) => command.group === group)
  const lines = [`Usage: ${PROGRAM} ${group} <command> [options]`, '', 'Commands:']
  for (const command of mine) lines.push(`  ${`${command.name} ${command.args.join(' ')}`.padEnd(26)} ${command.summary}`)
  lines.push('', `Run "${PROGRAM} ${group} <command> --help" for a command's options.`)
  return `${lines.join('\n')}\n`
}

export function programHelp(commands: readonly Command[]): string {
  const lines = [
    `Usage: ${PROGRAM} <group> <command> [arguments] [options]`,
    '',
    'AdOps Desk from the command line: the same connections, keychain and platform clients as the app.',
    '',
    'Commands:',
  ]
  for (const command of commands) lines.push(`  ${`${commandWords(command)} ${command.args.join(' ')}`.padEnd(34)} ${command.summary}`)
  lines.push(
    '',
    'Connection: --profile NAME, or --base-url URL --auth-url URL --report-url URL --service-id ID',
    '[--report-service-id ID] --username NAME with the password in ADOPS_PASSWORD,',
    'or a permanent token in ADOPS_TOKEN instead of --username.',
    '',
    'Environment: ADOPS_USER_DATA (folder of saved connections), ADOPS_KEYCHAIN_SERVICE (keychain entry name).',
    'Output goes to standard output (JSON unless --format csv); errors are one line on standard error.',
    'Exit codes: 0 success, 1 API or network error, 2 usage error, 4 some rows had errors, failed or conflicted (entities import, changes revert), 130 interrupted.',
    '',
    `Run "${PROGRAM} <group> <command> --help" for a command's options.`,
  )
  return `${lines.join('\n')}\n`
}
