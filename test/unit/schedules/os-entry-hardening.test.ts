import { spawnSync } from 'node:child_process'
import { promises as nodeFs, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runDueCommand } from '../../../main/services/schedules/os-entries/entry-command'
import { UnschedulablePathError } from '../../../main/services/schedules/os-entries/entry-check'
import { createOsEntry, launchAgentFile, systemdUnitFolder, type CommandRunner } from '../../../main/services/schedules/os-entries/installer'
import { CRON_MARKER, crontabLine, ENTRY_NAME, systemdService } from '../../../main/services/schedules/os-entries/text'
import { temporaryFolder } from '../../support/services'

/**
 * Issue 38 item 1: whatever the program or data folder's path holds, an OS entry is exactly the
 * one line or file expected, or nothing is written. Every scheduler here is a fake over a
 * temporary home: the real user's crontab, units, agents and tasks are never touched.
 */

const OTHER_LINES = 'MAILTO=ops@example.com\n0 1 * * * /usr/bin/backup\n'

/** One user's scheduler: a crontab and Task Scheduler's tasks in memory; `keep` is what the crontab stores of what it is given. */
function fakeScheduler(options: { systemd: boolean; crontab?: string; keep?: (input: string) => string; taskAnswer?: (xml: string) => string }) {
  let crontab = options.crontab ?? OTHER_LINES
  const tasks = new Map<string, string>()
  const calls: string[] = []
  const run: CommandRunner = async (file, args, input) => {
    calls.push([file, ...args].join(' '))
    if (file === 'systemctl') return { code: options.systemd ? 0 : 1, stdout: '', stderr: '' }
    if (file === 'crontab') {
      if (args[0] === '-l') return { code: 0, stdout: crontab, stderr: '' }
      crontab = (options.keep ?? ((text) => text))(input?.input ?? '')
      return { code: 0, stdout: '', stderr: '' }
    }
    if (file === 'schtasks') {
      const name = String(args[2])
      if (args[0] === '/Create')
        tasks.set(
          name,
          readFileSync(String(args[4]))
            .toString('utf16le')
            .replace(/^\ufeff/, ''),
        )
      if (args[0] === '/Delete') tasks.delete(name)
      const task = tasks.get(name)
      if (args[0] === '/Query')
        return task === undefined ? { code: 1, stdout: '', stderr: 'not found' } : { code: 0, stdout: (options.taskAnswer ?? ((xml) => xml))(task), stderr: '' }
    }
    return { code: 0, stdout: '', stderr: '' }
  }
  return { run, calls, crontab: () => crontab, tasks }
}

const now = () => new Date('2026-11-26T07:00:00.000Z')
const launch = { execPath: '/opt/AdOps Desk/adops-desk', packaged: true, appPath: null, cliScript: null, env: {} }
const windowsLaunch = { ...launch, execPath: 'C:\\Program Files\\AdOps Desk\\AdOps Desk.exe' }

const platforms = [
  ['linux', 'a systemd timer', true],
  ['linux', 'a crontab line', false],
  ['darwin', 'a LaunchAgent', false],
  ['win32', 'a Task Scheduler task', false],
] as const

/** Everything the entry could have left: unit files, the agent, the crontab, the tasks. */
async function leftovers(home: string, scheduler: ReturnType<typeof fakeScheduler>): Promise<unknown> {
  const listed = async (folder: string) => nodeFs.readdir(folder).catch(() => [])
  return {
    units: await listed(systemdUnitFolder(home)),
    agents: await listed(path.dirname(launchAgentFile(home))),
    crontab: scheduler.crontab(),
    tasks: [...scheduler.tasks.keys()],
    changes: scheduler.calls.filter((call) => /^(crontab -$|schtasks \/Create|launchctl load|systemctl --user (enable|daemon-reload))/.test(call)),
  }
}

const nothingLeft = { units: [], agents: [], crontab: OTHER_LINES, tasks: [], changes: [] }

describe('a path the scheduler cannot take is refused before anything is written', () => {
  const controls = ['\n', '\r', '\u0000', '\u001b', '\u007f', '\u2028', '\u2029']
  for (const [platform, label, systemd] of platforms)
    it(`${label}: a line break or another control character in the data folder or the program`, async () => {
      for (const control of controls)
        for (const where of ['data', 'program'] as const) {
          const home = await temporaryFolder('adops-home-')
          const scheduler = fakeScheduler({ systemd })
          const base = platform === 'win32' ? windowsLaunch : launch
          const command = runDueCommand(
            where === 'program' ? { ...base, execPath: `${base.execPath}${control}x` } : base,
            `/home/ops/ud${control}* * * * * touch /tmp/PWNED #`,
          )
          const entry = createOsEntry({ platform, homeDir: home, command, run: scheduler.run, now, userId: 'OFFICE\\ops' })
          const refused = await entry.install().then(
            () => null,
            (error: unknown) => error,
          )
          expect(refused, `${JSON.stringify(control)} in the ${where}`).toBeInstanceOf(UnschedulablePathError)
          expect((refused as Error).message).toMatch(/has a character .+ cannot take/)
          // A sentence for the page: no path in it, what to do.
          expect((refused as Error).message).not.toContain('/home/ops')
          expect((refused as Error).message).toMatch(/Schedules still run while the app is open/)
          expect(await leftovers(home, scheduler)).toEqual(nothingLeft)
        }
    })

  it('cron: a backslash before a percent sign is refused (cron would end the command there)', async () => {
    const scheduler = fakeScheduler({ systemd: false })
    const entry = createOsEntry({
      platform: 'linux',
      homeDir: await temporaryFolder(),
      command: runDueCommand(launch, '/data/odd\\%name'),
      run: scheduler.run,
      now,
    })
    await expect(entry.install()).rejects.toThrow(UnschedulablePathError)
    await expect(entry.install()).rejects.toThrow(/a backslash before a percent sign/)
    expect(scheduler.crontab()).toBe(OTHER_LINES)
  })

  it('Task Scheduler: a pair of percent signs (an environment variable to it) is refused; one alone is kept', async () => {
    const scheduler = fakeScheduler({ systemd: false })
    const entryFor = (folder: string) =>
      createOsEntry({ platform: 'win32', homeDir: '', command: runDueCommand(windowsLaunch, folder), run: scheduler.run, now, userId: 'OFFICE\\ops' })
    await expect(entryFor('C:\\Users\\%USERNAME%\\AdOps').install()).rejects.toThrow(/percent signs/)
    expect(scheduler.tasks.size).toBe(0)
    const home = await temporaryFolder()
    const kept = createOsEntry({
      platform: 'win32',
      homeDir: home,
      command: runDueCommand(windowsLaunch, 'C:\\Users\\ops\\100% AdOps'),
      run: scheduler.run,
      now,
      userId: 'OFFICE\\ops',
    })
    await kept.install()
    expect(await kept.ownsEntry()).toBe(true)
  })
})

/** What cron hands /bin/sh from a crontab line (Vixie cron's rule): `\%` is a percent sign, a bare `%` ends the command. */
function cronCommand(line: string): string {
  const command = line.split(' ').slice(5).join(' ')
  let handed = ''
  for (let index = 0; index < command.length; index += 1) {
    const character = command[index]
    if (character === '\\' && command[index + 1] === '%') {
      handed += '%'
      index += 1
    } else if (character === '%') break
    else handed += character
  }
  return handed
}

describe('cron reads the percent sign as the path has it', () => {
  const shell = spawnSync('sh', ['-c', 'true']).error ? 'sh is not installed on this machine' : null
  it.skipIf(shell !== null)('a percent sign and an apostrophe reach the program as they are', () => {
    const line = crontabLine(['printf', '<%s>', "/data/100% it's", 'a%b'])
    const handed = cronCommand(line).replace(` >/dev/null 2>&1 ${CRON_MARKER}`, '')
    expect(spawnSync('sh', ['-c', handed], { encoding: 'utf8' }).stdout).toBe("</data/100% it's><a%b>")
  })
})

describe('the written entry is read back, and one that is not exactly as written is taken away', () => {
  const command = runDueCommand(launch, '/home/ops/.config/AdOps Desk')

  it('cron: a crontab that keeps something else is put back as it was, and the install fails with a sentence', async () => {
    // This crontab keeps our line twice (a stand-in for any tool that stores other than it was given).
    const scheduler = fakeScheduler({ systemd: false, keep: (input) => input.replace(/^(\*\/5 .*)$/m, '$1\n$1') })
    const entry = createOsEntry({ platform: 'linux', homeDir: await temporaryFolder(), command, run: scheduler.run, now })
    await expect(entry.install()).rejects.toThrow(/crontab did not keep the entry as written.+removed/)
    expect(scheduler.crontab()).toBe(OTHER_LINES)
  })

  it('cron: a crontab that kept nothing fails the install', async () => {
    const scheduler = fakeScheduler({ systemd: false, keep: () => OTHER_LINES })
    const entry = createOsEntry({ platform: 'linux', homeDir: await temporaryFolder(), command, run: scheduler.run, now })
    await expect(entry.install()).rejects.toThrow(/crontab did not keep the entry as written/)
  })

  it('systemd: a unit that reads back otherwise is removed before systemd loads it', async () => {
    const home = await temporaryFolder('adops-home-')
    const scheduler = fakeScheduler({ systemd: true })
    // A disk that keeps only part of what is written: every file reads back cut short.
    const fs = {
      ...nodeFs,
      async open(file: string, flags: string, mode?: number) {
        const handle = await nodeFs.open(file, flags, mode)
        if (flags !== 'r') return handle
        return Object.assign(Object.create(handle), {
          read: async (buffer: Buffer, offset: number, length: number, position: number) => {
            const read = await handle.read(buffer, offset, length, position)
            return { ...read, bytesRead: Math.min(read.bytesRead, 40) }
          },
          close: () => handle.close(),
        })
      },
    } as unknown as typeof nodeFs
    const entry = createOsEntry({ platform: 'linux', homeDir: home, command, run: scheduler.run, now, fs })
    await expect(entry.install()).rejects.toThrow(/systemd unit did not read back as written.+removed/)
    expect(await leftovers(home, scheduler)).toEqual(nothingLeft)
  })

  it('Task Scheduler: a task that runs another command than the one given is deleted again', async () => {
    const scheduler = fakeScheduler({ systemd: false, taskAnswer: (xml) => xml.replace('--user-data', '--user-data C:\\Other') })
    const entry = createOsEntry({
      platform: 'win32',
      homeDir: await temporaryFolder(),
      command: runDueCommand(windowsLaunch, 'C:\\Users\\ops\\AdOps'),
      run: scheduler.run,
      now,
      userId: 'OFFICE\\ops',
    })
    await expect(entry.install()).rejects.toThrow(/Task Scheduler did not keep the task as written.+deleted/)
    expect(scheduler.tasks.size).toBe(0)
  })

  it('launchd: an agent that reads back otherwise is removed before launchd loads it', async () => {
    const home = await temporaryFolder('adops-home-')
    const scheduler = fakeScheduler({ systemd: false })
    const fs = {
      ...nodeFs,
      // The agent reads back from a folder another program rewrote meanwhile.
      async open(file: string, flags: string, mode?: number) {
        if (flags === 'r' && file.endsWith('.plist')) await nodeFs.writeFile(file, '<plist/>\n')
        return nodeFs.open(file, flags, mode)
      },
    } as unknown as typeof nodeFs
    const entry = createOsEntry({ platform: 'darwin', homeDir: home, command, run: scheduler.run, now, fs })
    await expect(entry.install()).rejects.toThrow(/LaunchAgent did not read back as written.+removed/)
    expect(await leftovers(home, scheduler)).toEqual(nothingLeft)
  })
})

describe('a broken entry an earlier version wrote is still found and removed whole', () => {
  // What the earlier version wrote for a data folder with a line break: two lines, the second a valid entry.
  const dataFolder = '/home/ops/ud\n* * * * * touch /tmp/PWNED-cron #'
  const command = runDueCommand(launch, dataFolder)
  const brokenLines = `*/5 * * * * '/opt/AdOps Desk/adops-desk' 'schedules' 'run-due' '--user-data' '/home/ops/ud\n* * * * * touch /tmp/PWNED-cron #' >/dev/null 2>&1 ${CRON_MARKER}\n`

  it('cron: the install that wrote it owns it, and removing it leaves no line of it', async () => {
    const scheduler = fakeScheduler({ systemd: false, crontab: OTHER_LINES + brokenLines })
    const entry = createOsEntry({ platform: 'linux', homeDir: await temporaryFolder(), command, run: scheduler.run, now })
    expect(await entry.ownsEntry()).toBe(true)
    await entry.remove()
    expect(scheduler.crontab()).toBe(OTHER_LINES)
  })

  it("cron: another install's removal takes the broken entry's every line too, and keeps the user's own", async () => {
    const userLines = "*/5 * * * * '/usr/bin/mine' # my own\n"
    const scheduler = fakeScheduler({ systemd: false, crontab: OTHER_LINES + userLines + brokenLines })
    const entry = createOsEntry({ platform: 'linux', homeDir: await temporaryFolder(), command: runDueCommand(launch, '/data'), run: scheduler.run, now })
    expect(await entry.ownsEntry()).toBe(false)
    await entry.remove()
    expect(scheduler.crontab()).toBe(OTHER_LINES + userLines)
  })

  it('systemd: a service whose ExecStart an earlier version split over two lines is this install’s', async () => {
    const home = await temporaryFolder('adops-home-')
    const units = systemdUnitFolder(home)
    await nodeFs.mkdir(units, { recursive: true })
    await nodeFs.writeFile(path.join(units, `${ENTRY_NAME}.timer`), '[Timer]\n')
    await nodeFs.writeFile(path.join(units, `${ENTRY_NAME}.service`), systemdService(command))
    const entry = createOsEntry({ platform: 'linux', homeDir: home, command, run: fakeScheduler({ systemd: true }).run, now })
    expect(await entry.ownsEntry()).toBe(true)
    await entry.remove()
    expect(await nodeFs.readdir(units)).toEqual([])
  })
})
