import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Notice } from '@contract'
import { dispatch } from '../../../main/handlers/dispatch'
import { connectEvents } from '../../../main/handlers/events'
import { createHandlers } from '../../../main/handlers/handlers'
import { createNotices, pathsHidden } from '../../../main/services/notices'
import { createTestServices, temporaryFolder } from '../../support/services'

/**
 * No file path crosses the bridge, and notices do: at start and as they happen. A file moved
 * aside is named relative to the app's data folder (the user opens it with Open Data Folder),
 * never by a path that shows the home folder or the user's name.
 */
const ABSOLUTE_PATH = /(^|[\s"'(=,;])(\/[^\s"'/]+\/|[A-Za-z]:[\\/]|\\\\[^\s\\]+\\)/

function expectNoAbsolutePath(text: string, folders: string[]): void {
  for (const folder of folders) {
    expect(text).not.toContain(folder)
    expect(text).not.toContain(JSON.stringify(folder).slice(1, -1))
  }
  expect(text).not.toMatch(ABSOLUTE_PATH)
}

describe('notices that reach the page name no absolute path', () => {
  let userDataDir: string
  let services: Awaited<ReturnType<typeof createTestServices>>
  const pushed: Notice[] = []
  let listed: Notice[] = []

  beforeAll(async () => {
    // A data folder whose name has a space, like the app's own ("AdOps Desk").
    userDataDir = path.join(await temporaryFolder('adops-notice-paths-'), 'AdOps Desk')
    await fs.mkdir(path.join(userDataDir, 'presets'), { recursive: true })
    await fs.writeFile(path.join(userDataDir, 'settings.json'), '{ not json')
    await fs.writeFile(path.join(userDataDir, 'profiles.json'), '{"version": 1, "profiles": "none"}')
    await fs.writeFile(path.join(userDataDir, 'presets', 'Team weekly.json'), '[1, 2')
    services = await createTestServices({ userDataDir })
    const handlers = createHandlers(services, { nativeSaveDialog: false })
    const disconnect = connectEvents(services, (event, payload) => {
      if (event === 'onNotice') pushed.push(payload as Notice)
    })
    // A notice added later with an OS error's text, as the keychain and disk warnings carry.
    services.notices.add({
      level: 'warning',
      message: `Could not write ${path.join(os.homedir(), 'exports', 'x.csv')}.`,
      details: {
        error: `Error: EACCES: permission denied, open '${path.join(userDataDir, 'history', 'runs.json')}'`,
        errors: [`rm ${os.tmpdir()}/a b/c.json`],
      },
    })
    await services.presets.list()
    disconnect()
    const info = (await dispatch(handlers, 'app:info', {})) as { ok: true; value: { notices: Notice[] } }
    listed = info.value.notices
  })
  afterAll(() => services.close())

  it('at start and as they happen', () => {
    // settings, connections, the preset file: moved aside and reported, plus the added one.
    expect(listed.length).toBeGreaterThanOrEqual(4)
    expect(pushed.length).toBeGreaterThanOrEqual(1)
    for (const notice of [...listed, ...pushed]) expectNoAbsolutePath(JSON.stringify(notice), [userDataDir, os.homedir(), os.tmpdir()])
  })

  it('where a file was moved is said relative to the data folder, and is there', async () => {
    const moved = listed.map((notice) => notice.details?.movedTo).filter((value): value is string => typeof value === 'string')
    expect(moved).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^settings\.json\./),
        expect.stringMatching(/^profiles\.json\./),
        expect.stringMatching(/^presets[\\/]Team weekly\.json\./),
      ]),
    )
    for (const where of moved) await expect(fs.stat(path.join(userDataDir, where))).resolves.toBeTruthy()
    const osError = listed.find((notice) => notice.message.startsWith('Could not write'))
    expect(osError).toMatchObject({
      message: 'Could not write x.csv.',
      details: { error: "Error: EACCES: permission denied, open 'history/runs.json'", errors: ['rm a b/c.json'] },
    })
  })
})

describe('paths in a notice text', () => {
  const hide = pathsHidden('C:\\Users\\Anna Berg\\AppData\\Roaming\\AdOps Desk')

  it.each([
    ["open 'C:\\Users\\Anna Berg\\AppData\\Roaming\\AdOps Desk\\presets\\a.json'", "open 'presets\\a.json'"],
    ['moved to C:/Users/Anna Berg/AppData/Roaming/AdOps Desk/results/p1/k.kept.corrupt-1', 'moved to results/p1/k.kept.corrupt-1'],
    ["open 'D:\\Team share\\presets\\b.json'", "open 'b.json'"],
    ['see \\\\server\\share\\c.json now', 'see c.json now'],
    ['stat /home/anna/.config/x.json failed', 'stat x.json failed'],
    ['the platform at https://api.example.com/v1/x answered 404/500 for A / B', 'the platform at https://api.example.com/v1/x answered 404/500 for A / B'],
  ])('%s', (text, shown) => {
    expect(hide(text)).toBe(shown)
  })

  it('applies to every notice added, details included, however deep', () => {
    const notices = createNotices(() => 'n1', { appFolder: '/home/anna/.config/AdOps Desk' })
    const seen: Notice[] = []
    notices.subscribe((notice) => seen.push(notice))
    const added = notices.add({
      level: 'info',
      message: 'Moved aside.',
      details: { movedTo: '/home/anna/.config/AdOps Desk/info/x.json.corrupt', deep: [{ at: '/srv/y.json' }] },
    })
    expect(added).toEqual({ id: 'n1', level: 'info', message: 'Moved aside.', details: { movedTo: 'info/x.json.corrupt', deep: [{ at: 'y.json' }] } })
    expect(seen).toEqual([added])
    expect(notices.list()).toEqual([added])
  })
})
