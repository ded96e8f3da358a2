/**
 * Pure text builders for the OS scheduler entries: one dispatcher entry that starts
 * `adops-desk schedules run-due` every few minutes and after a missed start (the machine was off
 * or asleep); run-due decides which schedules are due. Nothing here touches the disk. The
 * builders do not refuse anything: the installer checks the arguments first (entry-check.ts), and
 * ownership builds the text of an entry an earlier version may have written unchecked.
 */

/** How often the OS starts run-due: a scheduled run starts at most this late when the app is closed. */
export const DISPATCH_MINUTES = 5
export const ENTRY_NAME = 'adops-desk-schedules'
export const LAUNCHD_LABEL = 'com.adopsdesk.desktop.schedules'
export const TASK_NAME = 'AdOps Desk schedules'
/** The crontab line ends with this comment, so install and remove find their own line and no other. */
export const CRON_MARKER = '# adops-desk schedules (managed by AdOps Desk)'

const DESCRIPTION = 'AdOps Desk: run the schedules that are due'

/** One argument as systemd's ExecStart reads it: double-quoted, `\` and `"` escaped, `%` and `$` doubled (specifiers, variables). */
function systemdQuote(argument: string): string {
  return `"${argument.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/%/g, '%%').replace(/\$/g, '$$$$')}"`
}

/** The service's line that runs the command: an installed service holding it is this install's. */
export function systemdExecStart(command: readonly string[]): string {
  return `ExecStart=${command.map(systemdQuote).join(' ')}`
}

export function systemdService(command: readonly string[]): string {
  return ['[Unit]', `Description=${DESCRIPTION}`, '', '[Service]', 'Type=oneshot', systemdExecStart(command), ''].join('\n')
}

export const SYSTEMD_ON_CALENDAR = `*:0/${DISPATCH_MINUTES}`

/** `Persistent=true`: a start missed while the machine was off happens once at the next boot or login. */
export function systemdTimer(): string {
  return [
    '[Unit]',
    `Description=${DESCRIPTION} (every ${DISPATCH_MINUTES} minutes)`,
    '',
    '[Timer]',
    `OnCalendar=${SYSTEMD_ON_CALENDAR}`,
    'Persistent=true',
    'AccuracySec=1min',
    `Unit=${ENTRY_NAME}.service`,
    '',
    '[Install]',
    'WantedBy=timers.target',
    '',
  ].join('\n')
}

/** One argument for a POSIX shell (cron runs its line with /bin/sh): single-quoted; `%` escaped, cron's newline. */
function shellQuote(argument: string): string {
  return `'${argument.replace(/'/g, `'\\''`).replace(/%/g, '\\%')}'`
}

export function crontabLine(command: readonly string[]): string {
  // Output is discarded: the ledger and the CLI's log record every run; cron would mail it otherwise.
  return `*/${DISPATCH_MINUTES} * * * * ${command.map(shellQuote).join(' ')} >/dev/null 2>&1 ${CRON_MARKER}`
}

/** How our crontab line starts: the dispatch cadence, then the quoted program. */
const CRON_LINE_START = `*/${DISPATCH_MINUTES} * * * * '`
/** How far back a broken entry's first line is looked for: a path holds few line breaks. */
const BROKEN_ENTRY_MAX_LINES = 16

/** Whether /bin/sh, reading `text`, is still inside a single-quoted string at its end. */
function endsInsideQuotes(text: string): boolean {
  let inside = false
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index]
    if (inside) inside = character !== "'"
    else if (character === '\\') index += 1
    else if (character === "'") inside = true
  }
  return inside
}

/** Whether lines from..through, read as one text up to the marker, make one whole entry of ours. */
function wholeEntry(lines: readonly string[], from: number, through: number): boolean {
  if (!(lines[from] ?? '').startsWith(CRON_LINE_START)) return false
  const text = lines.slice(from, through + 1).join('\n')
  return !endsInsideQuotes(text.slice(0, text.lastIndexOf(CRON_MARKER)))
}

/**
 * A crontab split into our entries (each its text, lines joined by `\n`) and every other line.
 * An entry is a marker line, with the lines before it when an earlier version let a line break
 * of a path split it (its first line opens a quote the marker line closes); a marker line with
 * no such start is taken alone.
 */
export function crontabEntries(text: string): { ours: string[]; kept: string[] } {
  const lines = text.split('\n')
  const ours: string[] = []
  const taken = new Set<number>()
  let claimedThrough = -1
  lines.forEach((line, index) => {
    if (!line.includes(CRON_MARKER)) return
    let from = index
    for (let start = index; start >= Math.max(claimedThrough + 1, index - BROKEN_ENTRY_MAX_LINES); start -= 1)
      if (wholeEntry(lines, start, index)) {
        from = start
        break
      }
    for (let taking = from; taking <= index; taking += 1) taken.add(taking)
    ours.push(lines.slice(from, index + 1).join('\n'))
    claimedThrough = index
  })
  return { ours, kept: lines.filter((_line, index) => !taken.has(index)) }
}

/** A crontab with our entry replaced (or removed when `line` is null), a broken one's every line too; every other line kept as it was. */
export function withCrontabLine(current: string, line: string | null): string {
  const { kept } = crontabEntries(current)
  while (kept.length > 0 && kept[kept.length - 1] === '') kept.pop()
  if (line !== null) kept.push(line)
  return kept.length === 0 ? '' : `${kept.join('\n')}\n`
}

const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;')

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }
/** XML text as it reads: the five named entities and numeric ones (Task Scheduler writes its XML its own way). */
const unxml = (text: string) =>
  text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (whole, name: string) => {
    if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? whole
    const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1))
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole
  })

/** The program arguments block of the LaunchAgent: an installed agent holding it is this install's. */
export function launchAgentArguments(command: readonly string[]): string {
  return ['  <key>ProgramArguments</key>', '  <array>', ...command.map((argument) => `    <string>${xml(argument)}</string>`), '  </array>'].join('\n')
}

/**
 * A LaunchAgent: launchd starts it every few minutes while the user is logged in, and at login
 * (`RunAtLoad`); a start missed while asleep is coalesced into one on wake.
 */
export function launchAgentPlist(command: readonly string[], logFile: string): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<plist version="1.0">',
    '<dict>',
    '  <key>Label</key>',
    `  <string>${LAUNCHD_LABEL}</string>`,
    launchAgentArguments(command),
    '  <key>StartInterval</key>',
    `  <integer>${DISPATCH_MINUTES * 60}</integer>`,
    '  <key>RunAtLoad</key>',
    '  <true/>',
    '  <key>ProcessType</key>',
    '  <string>Background</string>',
    '  <key>StandardErrorPath</key>',
    `  <string>${xml(logFile)}</string>`,
    '</dict>',
    '</plist>',
    '',
  ].join('\n')
}

/** One argument as Windows programs split their command line (CommandLineToArgvW's rules). */
export function windowsQuote(argument: string): string {
  if (argument !== '' && !/[\s"]/.test(argument)) return argument
  return `"${argument.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\+)$/, '$1$1')}"`
}

const taskArguments = (argumentsAfterProgram: readonly string[]): string => argumentsAfterProgram.map(windowsQuote).join(' ')

/** Whether a task's XML (`schtasks /Query /XML`) runs the command: an installed task that does is this install's. */
export function taskRunsCommand(taskXml: string, command: readonly string[]): boolean {
  const [program = '', ...rest] = command
  const taskProgram = /<Command>([^<]*)<\/Command>/.exec(taskXml)?.[1]
  const taskArgumentText = /<Arguments>([^<]*)<\/Arguments>/.exec(taskXml)?.[1] ?? ''
  return taskProgram !== undefined && unxml(taskProgram.trim()) === program && unxml(taskArgumentText.trim()) === taskArguments(rest)
}

/**
 * A Task Scheduler task (`schtasks /Create /XML`): every few minutes from `start`, and at logon;
 * `StartWhenAvailable` runs a start missed while the computer was off as soon as it can.
 * Runs as the user, only when logged on (no stored password), never two at once.
 */
export function taskSchedulerXml(command: readonly string[], start: Date, userId: string): string {
  const [program = '', ...rest] = command
  const startBoundary = start.toISOString().slice(0, 19)
  return [
    '<?xml version="1.0" encoding="UTF-16"?>',
    '<Task version="1.2" xmlns="http://schemas.microsoft.com/windows/2004/02/mit/task">',
    '  <RegistrationInfo>',
    `    <Description>${xml(DESCRIPTION)}</Description>`,
    '  </RegistrationInfo>',
    '  <Triggers>',
    '    <TimeTrigger>',
    `      <StartBoundary>${startBoundary}</StartBoundary>`,
    '      <Enabled>true</Enabled>',
    '      <Repetition>',
    `        <Interval>PT${DISPATCH_MINUTES}M</Interval>`,
    '        <StopAtDurationEnd>false</StopAtDurationEnd>',
    '      </Repetition>',
    '    </TimeTrigger>',
    '    <LogonTrigger>',
    '      <Enabled>true</Enabled>',
    `      <UserId>${xml(userId)}</UserId>`,
    '    </LogonTrigger>',
    '  </Triggers>',
    '  <Principals>',
    '    <Principal id="Author">',
    `      <UserId>${xml(userId)}</UserId>`,
    '      <LogonType>InteractiveToken</LogonType>',
    '      <RunLevel>LeastPrivilege</RunLevel>',
    '    </Principal>',
    '  </Principals>',
    '  <Settings>',
    '    <MultipleInstancesPolicy>IgnoreNew</MultipleInstancesPolicy>',
    '    <DisallowStartIfOnBatteries>false</DisallowStartIfOnBatteries>',
    '    <StopIfGoingOnBatteries>false</StopIfGoingOnBatteries>',
    '    <StartWhenAvailable>true</StartWhenAvailable>',
    '    <ExecutionTimeLimit>PT2H</ExecutionTimeLimit>',
    '    <Enabled>true</Enabled>',
    '  </Settings>',
    '  <Actions Context="Author">',
    '    <Exec>',
    `      <Command>${xml(program)}</Command>`,
    `      <Arguments>${xml(taskArguments(rest))}</Arguments>`,
    '    </Exec>',
    '  </Actions>',
    '</Task>',
    '',
  ].join('\n')
}
