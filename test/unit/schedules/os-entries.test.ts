import { execFileSync, spawnSync } from 'node:child_process'
import { promises as fs, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runDueCommand } from '../../../main/services/schedules/os-entries/entry-command'
import { createOsEntry, launchAgentFile, systemdUnitFolder, type CommandRunner } from '../../../main/services/schedules/os-entries/installer'
import {
  CRON_MARKER,
  crontabLine,
  SYSTEMD_ON_CALENDAR,
  TASK_NAME,
  taskSchedulerXml,
  windowsQuote,
  withCrontabLine,
} from '../../../main/services/schedules/os-entries/text'
import { temporaryFolder } from '../../support/services'

/** A fake scheduler: records the commands, keeps a crontab in memory, answers as told. */
function fakeRunner(answers: { systemd: boolean; crontab?: boolean }) {
  const calls: string[] = []
  let crontab = 'MAILTO=ops@example.com\n0 1 * * * /usr/bin/backup\n'
  const tasks = new Map<string, string>()
  const run: CommandRunner = async (file, args, options) => {
    calls.push([file, ...args].join(' '))
    if (file === 'systemctl') return { code: answers.systemd ? 0 : 1, stdout: '', stderr: answers.systemd ? '' : 'Failed to connect to bus' }
    if (file === 'crontab') {
      if (answers.crontab === false) return { code: 127, stdout: '', stderr: '' }
      if (args[0] === '-l') return { code: 0, stdout: crontab, stderr: '' }
      crontab = options?.input ?? ''
      return { code: 0, stdout: '', stderr: '' }
    }
    if (file === 'schtasks') {
      // The task as created from the XML file; `/Query /XML` answers it (the installer reads it back).
      if (args[0] === '/Create')
        tasks.set(
          String(args[2]),
          readFileSync(String(args[4]))
            .toString('utf16le')
            .replace(/^\ufeff/, ''),
        )
      if (args[0] === '/Delete') tasks.delete(String(args[2]))
      const task = tasks.get(String(args[2]))
      return { code: args[0] === '/Query' && task === undefined ? 1 : 0, stdout: args.includes('/XML') ? (task ?? '') : '', stderr: '' }
    }
    return { code: 0, stdout: '', stderr: '' }
  }
  return { run, calls, crontab: () => crontab }
}

const now = () => new Date('2026-11-26T07:00:00.000Z')
// A program that exists on this machine, as systemd-analyze verify checks ExecStart's.
const command = runDueCommand(
  { execPath: process.execPath, packaged: false, appPath: null, cliScript: '/opt/AdOps Desk/out/cli/index.js', env: {} },
  '/home/ops/.config/AdOps Desk',
)

function toolMissing(tool: string): string | null {
  const found = spawnSync(tool, ['--version'], { encoding: 'utf8' })
  return found.error ? `${tool} is not installed on this machine` : null
}

describe('the OS entry command line', () => {
  it('starts this install: the AppImage file, Electron with its app folder, or Node with the built CLI', () => {
    const tail = ['schedules', 'run-due', '--user-data', '/data']
    expect(
      runDueCommand(
        { execPath: '/tmp/.mount_x/adops-desk', packaged: true, appPath: null, cliScript: null, env: { APPIMAGE: '/home/o/AdOps.AppImage' } },
        '/data',
      ),
    ).toEqual(['/home/o/AdOps.AppImage', ...tail])
    expect(runDueCommand({ execPath: '/opt/AdOps Desk/adops-desk', packaged: true, appPath: null, cliScript: null, env: {} }, '/data')).toEqual([
      '/opt/AdOps Desk/adops-desk',
      ...tail,
    ])
    expect(runDueCommand({ execPath: '/x/electron', packaged: false, appPath: '/src/app', cliScript: null, env: {} }, '/data')).toEqual([
      '/x/electron',
      '/src/app',
      ...tail,
    ])
  })
})

describe('Linux: a systemd user timer', () => {
  it('writes a timer with Persistent=true and its service into the home given, and removes both', async () => {
    const home = await temporaryFolder('adops-home-')
    const fake = fakeRunner({ systemd: true })
    const entry = createOsEntry({ platform: 'linux', homeDir: home, command, run: fake.run, now })
    expect(await entry.state()).toEqual({ kind: 'systemd', installed: false, problem: null })
    await entry.install()
    expect(await entry.state()).toEqual({ kind: 'systemd', installed: true, problem: null })
    const folder = systemdUnitFolder(home)
    const timer = await fs.readFile(path.join(folder, 'adops-desk-schedules.timer'), 'utf8')
    const service = await fs.readFile(path.join(folder, 'adops-desk-schedules.service'), 'utf8')
    expect(timer).toContain('Persistent=true')
    expect(timer).toContain(`OnCalendar=${SYSTEMD_ON_CALENDAR}`)
    expect(service).toContain(
      `ExecStart="${process.execPath}" "/opt/AdOps Desk/out/cli/index.js" "schedules" "run-due" "--user-data" "/home/ops/.config/AdOps Desk"`,
    )
    expect(fake.calls).toContain('systemctl --user enable --now adops-desk-schedules.timer')

    const skip = toolMissing('systemd-analyze')
    if (skip !== null) console.log(`SKIPPED systemd-analyze checks: ${skip}`)
    else {
      // System mode: no user manager runs here; verify reads the files and checks ExecStart's program.
      const verified = spawnSync(
        'systemd-analyze',
        ['verify', path.join(folder, 'adops-desk-schedules.timer'), path.join(folder, 'adops-desk-schedules.service')],
        {
          encoding: 'utf8',
        },
      )
      expect(verified.status, verified.stderr).toBe(0)
      expect(verified.stderr).not.toMatch(/adops-desk-schedules/)
      const calendar = execFileSync('systemd-analyze', ['calendar', SYSTEMD_ON_CALENDAR], { encoding: 'utf8' })
      expect(calendar).toMatch(/Normalized form: \*-\*-\* \*:00\/5:00/)
    }

    await entry.remove()
    expect(await fs.readdir(folder)).toEqual([])
    expect(await entry.state()).toMatchObject({ installed: false })
  })

  it('falls back to one crontab line where there is no user systemd, keeping the other lines', async () => {
    const home = await temporaryFolder('adops-home-')
    const fake = fakeRunner({ systemd: false })
    const entry = createOsEntry({ platform: 'linux', homeDir: home, command, run: fake.run, now })
    await entry.install()
    await entry.install()
    expect(await entry.state()).toEqual({ kind: 'cron', installed: true, problem: null })
    const lines = fake.crontab().trim().split('\n')
    expect(lines).toHaveLength(3)
    expect(lines.slice(0, 2)).toEqual(['MAILTO=ops@example.com', '0 1 * * * /usr/bin/backup'])
    expect(lines[2]).toBe(
      `*/5 * * * * '${process.execPath}' '/opt/AdOps Desk/out/cli/index.js' 'schedules' 'run-due' '--user-data' '/home/ops/.config/AdOps Desk' >/dev/null 2>&1 ${CRON_MARKER}`,
    )
    await entry.remove()
    expect(fake.crontab()).toBe('MAILTO=ops@example.com\n0 1 * * * /usr/bin/backup\n')
    // Nothing is written into the temp home for cron.
    expect(await fs.readdir(home)).toEqual([])
  })

  it('says so where there is neither', async () => {
    const entry = createOsEntry({ platform: 'linux', homeDir: await temporaryFolder(), command, run: fakeRunner({ systemd: false, crontab: false }).run, now })
    expect(await entry.state()).toMatchObject({ kind: null, installed: false, problem: expect.stringMatching(/no user systemd, no crontab/) })
    await expect(entry.install()).rejects.toThrow(/run while the app is open/)
  })

  it('quotes what the shell would read: a quote and a percent sign in a path', () => {
    expect(crontabLine(["/opt/it's 100%/adops-desk"])).toContain(`'/opt/it'\\''s 100\\%/adops-desk'`)
    expect(withCrontabLine('', null)).toBe('')
  })
})

describe('macOS: a LaunchAgent', () => {
  it('writes the plist into ~/Library/LaunchAgents of the home given, loads it, and removes it', async () => {
    const home = await temporaryFolder('adops-home-')
    const fake = fakeRunner({ systemd: false })
    const entry = createOsEntry({
      platform: 'darwin',
      homeDir: home,
      command: ['/Applications/AdOps Desk.app/Contents/MacOS/AdOps Desk', 'schedules', 'run-due'],
      run: fake.run,
      now,
    })
    await entry.install()
    const file = launchAgentFile(home)
    const plist = await fs.readFile(file, 'utf8')
    expect(plist).toContain('<string>/Applications/AdOps Desk.app/Contents/MacOS/AdOps Desk</string>')
    expect(plist).toContain('<key>StartInterval</key>\n  <integer>300</integer>')
    expect(plist).toContain('<key>RunAtLoad</key>\n  <true/>')
    expect(fake.calls).toContain(`launchctl load -w ${file}`)
    expect(await entry.state()).toEqual({ kind: 'launchd', installed: true, problem: null })
    const skip = toolMissing('plutil')
    if (skip !== null) console.log(`SKIPPED plutil -lint: ${skip}`)
    else expect(spawnSync('plutil', ['-lint', file]).status).toBe(0)
    await entry.remove()
    await expect(fs.access(file)).rejects.toThrow()
  })
})

describe('Windows: a Task Scheduler task', () => {
  it('creates the task from XML with StartWhenAvailable, and deletes it', async () => {
    const home = await temporaryFolder('adops-home-')
    const fake = fakeRunner({ systemd: false })
    const program = 'C:\\Users\\ops\\AppData\\Local\\Programs\\AdOps Desk\\AdOps Desk.exe'
    const entry = createOsEntry({
      platform: 'win32',
      homeDir: home,
      command: [program, 'schedules', 'run-due', '--user-data', 'C:\\Users\\ops\\AppData\\Roaming\\AdOps Desk\\'],
      run: fake.run,
      now,
      userId: 'PC\\ops',
    })
    await entry.install()
    expect(fake.calls.find((call) => call.startsWith('schtasks /Create'))).toMatch(
      new RegExp(`^schtasks /Create /TN ${TASK_NAME} /XML .+adops-desk-schedules\\.xml /F$`),
    )
    expect(await entry.state()).toEqual({ kind: 'task-scheduler', installed: true, problem: null })
    await entry.remove()
    expect(await entry.state()).toMatchObject({ installed: false })

    const text = taskSchedulerXml([program, 'schedules', 'run-due', '--user-data', 'C:\\data dir\\'], now(), 'PC\\ops')
    expect(text).toContain('<StartWhenAvailable>true</StartWhenAvailable>')
    expect(text).toContain('<Interval>PT5M</Interval>')
    expect(text).toContain(`<Command>${program}</Command>`)
    // A trailing backslash before the closing quote is doubled, as Windows programs split arguments.
    expect(text).toContain('<Arguments>schedules run-due --user-data &quot;C:\\data dir\\\\&quot;</Arguments>')
    expect(windowsQuote('say "hi"')).toBe('"say \\"hi\\""')
  })
})
