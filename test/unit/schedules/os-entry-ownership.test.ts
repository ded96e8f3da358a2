import { promises as nodeFs, readFileSync } from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runDueCommand } from '../../../main/services/schedules/os-entries/entry-command'
import { createOsEntry, systemdUnitFolder, type CommandRunner } from '../../../main/services/schedules/os-entries/installer'
import { ENTRY_NAME, systemdService, taskRunsCommand } from '../../../main/services/schedules/os-entries/text'
import type { OsEntryPort } from '../../../main/services/schedules/service'
import { temporaryFolder } from '../../support/services'
import { createHarness, draftWithFolder, type Harness } from './support'

/**
 * The OS entry has one name per user, so two installs on one computer (a second data folder, a
 * checkout beside the packaged app, a test's stand-in app) see the same entry. An install removes
 * the entry on its own only when the entry runs its command: deleting the last schedule of one
 * data folder must not stop another's schedules from running.
 */

/** One user's scheduler, shared by every install: a crontab and Task Scheduler's tasks, as the tools answer. */
function sharedScheduler(systemd: boolean) {
  let crontab = ''
  const tasks = new Map<string, string>()
  const calls: string[] = []
  const run: CommandRunner = async (file, args, options) => {
    calls.push([file, ...args].join(' '))
    if (file === 'systemctl') return { code: systemd ? 0 : 1, stdout: '', stderr: '' }
    if (file === 'crontab') {
      if (args[0] === '-l') return { code: 0, stdout: crontab, stderr: '' }
      crontab = options?.input ?? ''
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
      // Task Scheduler answers with its own XML: quotes left as they are, an apostrophe as a number.
      if (args[0] === '/Query')
        return task === undefined ? { code: 1, stdout: '', stderr: 'not found' } : { code: 0, stdout: asTaskScheduler(task), stderr: '' }
    }
    return { code: 0, stdout: '', stderr: '' }
  }
  return { run, calls, crontab: () => crontab }
}

const asTaskScheduler = (task: string): string => task.replaceAll('&quot;', '"').replaceAll('&apos;', '&#39;')

const launch = { execPath: '/opt/AdOps Desk/adops-desk', packaged: true, appPath: null, cliScript: null, env: {} }
const now = () => new Date('2026-11-26T07:00:00.000Z')

async function twoInstalls(platform: NodeJS.Platform, systemd = true) {
  const homeDir = await temporaryFolder('adops-home-')
  const scheduler = sharedScheduler(systemd)
  const entryFor = (dataFolder: string) =>
    createOsEntry({ platform, homeDir, command: runDueCommand(launch, dataFolder), run: scheduler.run, now, userId: 'OFFICE\\ops' })
  // Data folders whose quoting differs on every platform: spaces, quotes, an apostrophe, a percent sign.
  return { scheduler, first: entryFor(`/home/ops/It's "Work" 100%`), second: entryFor('/home/ops/.config/AdOps Desk') }
}

describe('whose OS entry it is', () => {
  for (const [platform, label, systemd] of [
    ['linux', 'a systemd timer', true],
    ['linux', 'a crontab line', false],
    ['darwin', 'a LaunchAgent', true],
    ['win32', 'a Task Scheduler task', true],
  ] as const)
    it(`${label}: the install that wrote it owns it; another data folder's install does not`, async () => {
      const { first, second } = await twoInstalls(platform, systemd)
      expect(await first.ownsEntry()).toBe(false)
      await first.install()
      expect(await first.ownsEntry()).toBe(true)
      expect(await second.ownsEntry()).toBe(false)
      // Both see it installed (the list says so to either); installing again makes it the second's.
      expect(await second.state()).toMatchObject({ installed: true })
      await second.install()
      expect(await second.ownsEntry()).toBe(true)
      expect(await first.ownsEntry()).toBe(false)
    })

  it('asks the crontab and Task Scheduler once to see whose the entry is', async () => {
    for (const [platform, systemd, asked] of [
      ['linux', false, 'crontab -l'],
      ['win32', true, 'schtasks /Query'],
    ] as const) {
      const { first, scheduler } = await twoInstalls(platform, systemd)
      await first.install()
      const before = scheduler.calls.length
      expect(await first.ownsEntry()).toBe(true)
      expect(scheduler.calls.slice(before).filter((call) => call.startsWith(asked))).toHaveLength(1)
    }
  })

  it('reads at most 64 KB of an entry file to see whose it is, however big the file', async () => {
    const homeDir = await temporaryFolder('adops-home-')
    const command = runDueCommand(launch, '/home/ops/data')
    const units = systemdUnitFolder(homeDir)
    await nodeFs.mkdir(units, { recursive: true })
    await nodeFs.writeFile(path.join(units, `${ENTRY_NAME}.timer`), '[Timer]\n')
    await nodeFs.writeFile(path.join(units, `${ENTRY_NAME}.service`), systemdService(command) + '#'.repeat(8 * 1024 * 1024))
    const asked: number[] = []
    const fs = {
      ...nodeFs,
      readFile: () => Promise.reject(new Error('an entry file is never read whole')),
      async open(file: string, flags: string) {
        const handle = await nodeFs.open(file, flags)
        return Object.assign(Object.create(handle), {
          read: (buffer: Buffer, offset: number, length: number, position: number) => (asked.push(length), handle.read(buffer, offset, length, position)),
          close: () => handle.close(),
        })
      },
    } as unknown as typeof nodeFs
    const entry = createOsEntry({ platform: 'linux', homeDir, command, run: sharedScheduler(true).run, now, fs })
    expect(await entry.ownsEntry()).toBe(true)
    expect(asked).toEqual([64 * 1024])
  })

  it("reads Task Scheduler's XML entities, and a task running another program is not this install's", () => {
    const command = ['C:\\Program Files\\AdOps Desk\\AdOps Desk.exe', 'schedules', 'run-due', '--user-data', 'C:\\Users\\o\\AdOps "A&B"']
    const task = (program: string, argumentText: string) =>
      `<Task><Actions><Exec><Command>${program}</Command><Arguments>${argumentText}</Arguments></Exec></Actions></Task>`
    const argumentText = 'schedules run-due --user-data "C:\\Users\\o\\AdOps \\&quot;A&amp;B\\&quot;"'
    expect(taskRunsCommand(task('C:\\Program Files\\AdOps Desk\\AdOps Desk.exe', argumentText), command)).toBe(true)
    expect(taskRunsCommand(task('C:\\Program Files\\AdOps Desk\\AdOps Desk.exe', argumentText.replaceAll('&amp;', '&#x26;')), command)).toBe(true)
    expect(taskRunsCommand(task('C:\\Other\\AdOps Desk.exe', argumentText), command)).toBe(false)
    expect(taskRunsCommand(task('C:\\Program Files\\AdOps Desk\\AdOps Desk.exe', 'schedules run-due --user-data C:\\Other'), command)).toBe(false)
    expect(taskRunsCommand('<Task/>', command)).toBe(false)
  })
})

describe('deleting the last schedule', () => {
  let harness: Harness | undefined
  afterEach(() => harness?.service.stop())

  async function lastScheduleDeleted(osEntry: OsEntryPort): Promise<void> {
    harness = await createHarness('2026-11-26T06:00:00.000Z', { osEntry })
    const saved = await harness.service.save(await draftWithFolder(harness))
    await harness.service.remove(saved.id)
  }

  it("removes this install's entry", async () => {
    const { first, scheduler } = await twoInstalls('linux', false)
    await first.install()
    await lastScheduleDeleted(first)
    expect(await first.state()).toMatchObject({ installed: false })
    expect(scheduler.crontab()).toBe('')
  })

  it("leaves another data folder's entry, so its schedules keep running", async () => {
    const { first, second, scheduler } = await twoInstalls('linux', false)
    await first.install()
    const installed = scheduler.crontab()
    await lastScheduleDeleted(second)
    expect(scheduler.crontab()).toBe(installed)
    expect(await first.ownsEntry()).toBe(true)
    expect(scheduler.calls.filter((call) => call === 'crontab -')).toHaveLength(1)
  })
})
