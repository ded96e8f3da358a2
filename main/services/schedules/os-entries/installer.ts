/**
 * Installs, removes and reads the one OS scheduler entry, per platform: a systemd user timer
 * (crontab where there is no user systemd) on Linux, a LaunchAgent on macOS, a Task Scheduler
 * task on Windows. The home folder, the platform and the way commands run are passed in, so
 * tests write into a temporary home and never touch the real user's scheduler.
 */
import { execFile } from 'node:child_process'
import { promises as nodeFs } from 'node:fs'
import path from 'node:path'
import type { OsEntryState } from '@contract'
import { AppError } from '../../errors'
import { writeFileAtomic } from '../../files/atomic'
import type { OsEntryPort } from '../service'
import { checkEntryArguments } from './entry-check'
import {
  CRON_MARKER,
  crontabEntries,
  crontabLine,
  ENTRY_NAME,
  LAUNCHD_LABEL,
  launchAgentArguments,
  launchAgentPlist,
  systemdExecStart,
  systemdService,
  systemdTimer,
  TASK_NAME,
  taskRunsCommand,
  taskSchedulerXml,
  withCrontabLine,
} from './text'

export interface CommandResult {
  code: number
  stdout: string
  stderr: string
}
/** Runs a program without a shell; a program that is not there answers code 127. */
export type CommandRunner = (file: string, args: readonly string[], options?: { input?: string }) => Promise<CommandResult>

export const runCommand: CommandRunner = (file, args, options = {}) =>
  new Promise((resolve) => {
    const child = execFile(file, [...args], { timeout: 30_000, maxBuffer: 1024 * 1024, windowsHide: true }, (error, stdout, stderr) => {
      const code = error === null ? 0 : (error as NodeJS.ErrnoException).code === 'ENOENT' ? 127 : typeof error.code === 'number' ? error.code : 1
      resolve({ code, stdout: String(stdout), stderr: String(stderr) })
    })
    if (options.input !== undefined) child.stdin?.end(options.input)
  })

/** How much of an entry's file is read to see whose it is: ours are under 2 KB, and a read is bounded. */
const ENTRY_FILE_READ_LIMIT = 64 * 1024

/** Where the user's scheduler is reached: the home its entry files go in, and how its tools run. */
export interface OsSchedulerAccess {
  homeDir: string
  run: CommandRunner
}

export interface OsEntryOptions {
  platform: NodeJS.Platform
  homeDir: string
  /** The program and arguments that run `schedules run-due` on this install (entry-command.ts). */
  command: readonly string[]
  run: CommandRunner
  now: () => Date
  /** Windows: the user the task runs as (`DOMAIN\user`). */
  userId?: string
  /** Where a LaunchAgent's errors go. */
  logFile?: string
  fs?: typeof nodeFs
}

type Kind = NonNullable<OsEntryState['kind']>

export function systemdUnitFolder(homeDir: string): string {
  return path.join(homeDir, '.config', 'systemd', 'user')
}
export function launchAgentFile(homeDir: string): string {
  return path.join(homeDir, 'Library', 'LaunchAgents', `${LAUNCHD_LABEL}.plist`)
}

function failed(what: string, result: CommandResult): AppError {
  const said = (result.stderr || result.stdout).trim().split('\n')[0]?.slice(0, 300) ?? ''
  return new AppError('internal', `${what}${said === '' ? '' : ` (${said})`}. Schedules still run while the app is open.`, { exitCode: result.code })
}

/** The entry read back was not the one written: what was written is taken away, and this says so. */
function notAsWritten(what: string, undone: string): AppError {
  return new AppError('storage', `${what}, so it was ${undone}. Check that nothing else edits it, then try again. Schedules still run while the app is open.`)
}

export function createOsEntry(options: OsEntryOptions): OsEntryPort {
  const fs = options.fs ?? nodeFs
  const { run } = options
  const units = systemdUnitFolder(options.homeDir)
  const timerFile = path.join(units, `${ENTRY_NAME}.timer`)
  const serviceFile = path.join(units, `${ENTRY_NAME}.service`)
  const plist = launchAgentFile(options.homeDir)
  let linuxKind: Promise<Kind | null> | null = null

  const exists = (file: string) =>
    fs.access(file).then(
      () => true,
      () => false,
    )
  /** A unit file or agent's first bytes (ours are under 2 KB); empty when it is not there or cannot be read. */
  async function bytesOf(file: string): Promise<Buffer> {
    const handle = await fs.open(file, 'r').catch(() => null)
    if (handle === null) return Buffer.alloc(0)
    try {
      const buffer = Buffer.alloc(ENTRY_FILE_READ_LIMIT)
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0)
      return buffer.subarray(0, bytesRead)
    } catch {
      return Buffer.alloc(0)
    } finally {
      await handle.close().catch(() => undefined)
    }
  }
  const textOf = async (file: string): Promise<string> => (await bytesOf(file)).toString('utf8')
  /** Writes an entry's file and reads it back: false (and the file removed) when it does not read back as written. */
  async function writtenAsIs(file: string, content: string | Buffer): Promise<boolean> {
    await writeFileAtomic(file, content, fs)
    if ((await bytesOf(file)).equals(Buffer.from(content))) return true
    await fs.rm(file, { force: true })
    return false
  }

  /** A user systemd answers `systemctl --user`; without one (containers, WSL, some desktops) cron, where there is a crontab. */
  async function kind(): Promise<Kind | null> {
    if (options.platform === 'darwin') return 'launchd'
    if (options.platform === 'win32') return 'task-scheduler'
    if (options.platform !== 'linux') return null
    linuxKind ??= (async () => {
      if ((await run('systemctl', ['--user', 'show-environment'])).code === 0) return 'systemd'
      return (await run('crontab', ['-l'])).code === 127 ? null : 'cron'
    })()
    return linuxKind
  }

  async function crontab(): Promise<string> {
    const listed = await run('crontab', ['-l'])
    // "no crontab for user" is an empty crontab, not an error.
    return listed.code === 0 ? listed.stdout : ''
  }

  async function installed(which: Kind): Promise<boolean> {
    switch (which) {
      case 'systemd':
        return (await exists(timerFile)) && (await exists(serviceFile))
      case 'cron':
        return (await crontab()).includes(CRON_MARKER)
      case 'launchd':
        return exists(plist)
      case 'task-scheduler':
        return (await run('schtasks', ['/Query', '/TN', TASK_NAME])).code === 0
    }
  }

  /**
   * Whether an entry is installed that runs this install's command (its program and data folder).
   * Reading the entry is seeing it is there: the crontab and Task Scheduler are asked once, not
   * once for `installed` and again for its text.
   */
  async function ownsInstalled(which: Kind): Promise<boolean> {
    switch (which) {
      // Whole lines: an ExecStart or crontab line an earlier version split over two (a line break in a path) is still ours.
      case 'systemd':
        return (await exists(timerFile)) && `\n${await textOf(serviceFile)}`.includes(`\n${systemdExecStart(options.command)}\n`)
      case 'cron':
        return crontabEntries(await crontab()).ours.includes(crontabLine(options.command))
      case 'launchd':
        return (await textOf(plist)).includes(launchAgentArguments(options.command))
      case 'task-scheduler': {
        const queried = await run('schtasks', ['/Query', '/TN', TASK_NAME, '/XML'])
        return queried.code === 0 && taskRunsCommand(queried.stdout, options.command)
      }
    }
  }

  const logFile = options.logFile ?? path.join(options.homeDir, 'Library', 'Logs', 'AdOps Desk', 'schedules.log')

  /** Each writes its entry and reads it back before the scheduler loads it; one not exactly as written is taken away. */
  const installers: Record<Kind, () => Promise<void>> = {
    async systemd() {
      const service = await writtenAsIs(serviceFile, systemdService(options.command))
      if (!service || !(await writtenAsIs(timerFile, systemdTimer()))) {
        // Both go: an earlier install's timer without its service would be a dead entry.
        await fs.rm(serviceFile, { force: true })
        await fs.rm(timerFile, { force: true })
        throw notAsWritten('The systemd unit did not read back as written', 'removed')
      }
      const reload = await run('systemctl', ['--user', 'daemon-reload'])
      if (reload.code !== 0) throw failed('systemd could not read the new timer', reload)
      const enable = await run('systemctl', ['--user', 'enable', '--now', `${ENTRY_NAME}.timer`])
      if (enable.code !== 0) throw failed('systemd could not start the timer', enable)
    },
    async cron() {
      const line = crontabLine(options.command)
      const written = await run('crontab', ['-'], { input: withCrontabLine(await crontab(), line) })
      if (written.code !== 0) throw failed('The crontab could not be written', written)
      const kept = await crontab()
      const { ours } = crontabEntries(kept)
      if (ours.length === 1 && ours[0] === line) return
      if (ours.length > 0) await run('crontab', ['-'], { input: withCrontabLine(kept, null) })
      throw notAsWritten('The crontab did not keep the entry as written', 'removed')
    },
    async launchd() {
      if (!(await writtenAsIs(plist, launchAgentPlist(options.command, logFile)))) throw notAsWritten('The LaunchAgent did not read back as written', 'removed')
      // Loaded again so a changed command takes effect; "not loaded" on the first unload is fine.
      await run('launchctl', ['unload', plist])
      const load = await run('launchctl', ['load', '-w', plist])
      if (load.code !== 0) throw failed('launchd could not load the agent', load)
    },
    async 'task-scheduler'() {
      const file = path.join(options.homeDir, 'AppData', 'Local', 'Temp', `${ENTRY_NAME}.xml`)
      // schtasks reads the XML as the declaration says: UTF-16 with its byte-order mark.
      const xml = Buffer.from(`\ufeff${taskSchedulerXml(options.command, options.now(), options.userId ?? '')}`, 'utf16le')
      if (!(await writtenAsIs(file, xml))) throw notAsWritten('The task file did not read back as written', 'removed')
      const created = await run('schtasks', ['/Create', '/TN', TASK_NAME, '/XML', file, '/F'])
      await fs.rm(file, { force: true })
      if (created.code !== 0) throw failed('Task Scheduler could not create the task', created)
      if (await ownsInstalled('task-scheduler')) return
      await run('schtasks', ['/Delete', '/TN', TASK_NAME, '/F'])
      throw notAsWritten('Task Scheduler did not keep the task as written', 'deleted')
    },
  }

  return {
    async state() {
      const which = await kind()
      if (which === null)
        return {
          kind: null,
          installed: false,
          problem: 'This system has no scheduler AdOps Desk can use (no user systemd, no crontab); schedules run while the app is open.',
        }
      return { kind: which, installed: await installed(which), problem: null }
    },

    async install() {
      const which = await kind()
      if (which === null)
        throw new AppError('internal', 'This system has no scheduler AdOps Desk can use (no user systemd, no crontab); schedules run while the app is open.')
      checkEntryArguments(which, options.command, [
        ...(which === 'launchd' ? [{ what: "The path of the agent's log file", text: logFile }] : []),
        ...(which === 'task-scheduler' ? [{ what: 'The Windows user name', text: options.userId ?? '' }] : []),
      ])
      await installers[which]()
    },

    async ownsEntry() {
      const which = await kind()
      return which !== null && (await ownsInstalled(which))
    },

    async remove() {
      const which = await kind()
      if (which === 'systemd') {
        await run('systemctl', ['--user', 'disable', '--now', `${ENTRY_NAME}.timer`])
        await fs.rm(timerFile, { force: true })
        await fs.rm(serviceFile, { force: true })
        await run('systemctl', ['--user', 'daemon-reload'])
      } else if (which === 'cron') {
        const current = await crontab()
        if (current.includes(CRON_MARKER)) {
          const written = await run('crontab', ['-'], { input: withCrontabLine(current, null) })
          if (written.code !== 0) throw failed('The crontab could not be written', written)
        }
      } else if (which === 'launchd') {
        await run('launchctl', ['unload', '-w', plist])
        await fs.rm(plist, { force: true })
      } else if (which === 'task-scheduler') {
        const deleted = await run('schtasks', ['/Delete', '/TN', TASK_NAME, '/F'])
        if (deleted.code !== 0 && (await installed(which))) throw failed('Task Scheduler could not delete the task', deleted)
      }
    },
  }
}
