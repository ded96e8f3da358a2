import { EventEmitter } from 'node:events'
import { promises as fs } from 'node:fs'
import path from 'node:path'
import type { MenuItemConstructorOptions } from 'electron'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { channelNames, eventChannel, menuCommands } from '@contract'
import { startApp } from '../../../main/app'
import type { Keychain } from '../../../main/services/secrets/keychain'
import { createFakeElectron, type FakeWebContents } from '../../support/fake-electron'
import { createMemoryKeychain } from '../../support/memory-keychain'
import { temporaryFolder } from '../../support/services'

describe('main process wiring (with a stand-in electron module)', () => {
  let fake: ReturnType<typeof createFakeElectron>
  let contents: FakeWebContents
  let out: string
  // A keychain that can be told to refuse deletes: the one way to make main raise a notice on demand.
  const keychain = createMemoryKeychain()
  let refuseDeletes = false
  const stubbornKeychain: Keychain = {
    ...keychain,
    async deletePassword(service, account) {
      if (refuseDeletes) throw new Error('The keychain is locked')
      return keychain.deletePassword(service, account)
    },
  }
  let sandboxLoads = 0
  let userData: string
  // The test's own `process` for unhandled errors, so firing one does not touch the test runner's.
  const processEvents = new EventEmitter()
  // The OS scheduler's tools as this stand-in desktop runs them: recorded, never the real user's
  // (no user systemd, no crontab here).
  const schedulerCalls: string[] = []

  beforeAll(async () => {
    out = await temporaryFolder('adops-out-')
    await fs.mkdir(path.join(out, 'renderer'), { recursive: true })
    await fs.writeFile(path.join(out, 'renderer', 'index.html'), '<!doctype html><title>AdOps Desk</title>')
    userData = await temporaryFolder()
    // Last time the window was maximised on a monitor to the right, which is gone now.
    await fs.writeFile(
      path.join(userData, 'window-state.json'),
      JSON.stringify({ version: 1, bounds: { x: 2500, y: 100, width: 1600, height: 1000 }, maximized: true }),
    )
    fake = createFakeElectron(userData, { displays: [{ x: 0, y: 0, width: 1440, height: 875 }], osDark: true })
    await startApp(fake.electron, {
      mainDir: path.join(out, 'main'),
      openKeychain: async () => stubbornKeychain,
      processEvents,
      loadSandbox: async () => {
        sandboxLoads += 1
        throw new Error('the wiring test starts no demo')
      },
      argv: ['/opt/AdOps Desk/adops-desk', '--no-sandbox', 'adopsdesk://preset/Launch%20link'],
      runSchedulerCommand: async (file, args) => {
        schedulerCalls.push([file, ...args].join(' '))
        return { code: file === 'crontab' ? 127 : 1, stdout: '', stderr: '' }
      },
    })
    const window = fake.windows[0]
    if (!window) throw new Error('no window was created')
    contents = window.webContents
  })

  it('creates one window with the secure web preferences and the bundled preload', () => {
    expect(fake.windows).toHaveLength(1)
    const preferences = fake.windows[0]?.options.webPreferences as Record<string, unknown>
    expect(preferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, webviewTag: false })
    expect(preferences.allowRunningInsecureContent).toBe(false)
    // Not packaged (this stand-in): DevTools stay available to the developer.
    expect(preferences.devTools).toBe(true)
    expect(preferences.preload).toBe(path.join(out, 'preload', 'index.cjs'))
    expect(fake.app.sandboxEnabled).toBe(true)
    expect(fake.windows[0]?.loadedUrl).toBe('app://adops/index.html')
  })

  it('serves the renderer with a CSP whose script-src is self only, and nothing outside the renderer folder', async () => {
    expect(fake.protocols.privileged).toEqual([expect.objectContaining({ scheme: 'app' })])
    const handler = fake.protocols.handlers.get('app')
    if (!handler) throw new Error('app:// is not handled')
    const page = await handler(new Request('app://adops/index.html'))
    const csp = page.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("script-src 'self'")
    expect(csp).not.toMatch(/script-src[^;]*unsafe-(inline|eval)/)
    expect(csp).toContain("default-src 'self'")
    expect(await page.text()).toContain('AdOps Desk')
    const escape = await handler(new Request('app://adops/..%2F..%2F..%2Fetc%2Fpasswd'))
    expect(escape.status).toBe(404)
  })

  it('denies navigation, redirects, webviews and window.open', () => {
    for (const event of ['will-navigate', 'will-redirect', 'will-attach-webview']) {
      let prevented = false
      contents.emit(event, { preventDefault: () => (prevented = true) }, 'https://evil.example.com')
      expect(prevented, event).toBe(true)
    }
    expect(contents.windowOpenHandler?.({ url: 'https://evil.example.com' })).toEqual({ action: 'deny' })
    expect(contents.windowOpenHandler?.({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' })
    expect(fake.opened).toEqual([])
    // An allow-listed link opens in the OS browser, still never in the app.
    expect(contents.windowOpenHandler?.({ url: 'https://adops-desk.invalid/help' })).toEqual({ action: 'deny' })
    expect(fake.opened).toEqual(['https://adops-desk.invalid/help'])
  })

  it('denies every permission request and check', () => {
    const answers: boolean[] = []
    fake.permission.request?.({}, 'media', (granted: boolean) => answers.push(granted))
    fake.permission.request?.({}, 'notifications', (granted: boolean) => answers.push(granted))
    expect(answers).toEqual([false, false])
    expect(fake.permission.check?.({}, 'clipboard-read')).toBe(false)
  })

  it('registers exactly one handler per contract channel', () => {
    expect([...fake.handlers.keys()].sort()).toEqual([...channelNames].sort())
  })

  it('answers our own main frame, refuses other senders and subframes', async () => {
    const handler = fake.handlers.get('app:info')
    if (!handler) throw new Error('app:info not registered')
    const own = await handler({ sender: contents, senderFrame: contents.mainFrame }, {})
    expect(own).toMatchObject({ ok: true, value: { version: '0.1.0', capabilities: { nativeSaveDialog: true } } })
    const subframe = await handler({ sender: contents, senderFrame: { url: 'app://adops/index.html' } }, {})
    expect(subframe).toMatchObject({ ok: false, error: { code: 'forbidden' } })
    const foreign = { ...contents, mainFrame: { url: 'https://evil.example.com/' } }
    const other = await handler({ sender: foreign, senderFrame: foreign.mainFrame }, {})
    expect(other).toMatchObject({ ok: false, error: { code: 'forbidden' } })
    const bad = await handler({ sender: contents, senderFrame: contents.mainFrame }, { unexpected: true })
    expect(bad).toMatchObject({ ok: false, error: { code: 'bad_input' } })
  })

  it('starts without loading the demo backend', () => {
    expect(sandboxLoads).toBe(0)
  })

  it('forwards a notice raised after start to the window on the event channel', async () => {
    const own = { sender: contents, senderFrame: contents.mainFrame }
    const invoke = async (channel: string, input: unknown): Promise<unknown> => {
      const handler = fake.handlers.get(channel)
      if (!handler) throw new Error(`${channel} not registered`)
      return handler(own, input)
    }
    const noticesSent = () => contents.sent.filter((message) => message.channel === eventChannel('onNotice'))
    // Nothing has happened yet that deserves a notice.
    expect(noticesSent()).toEqual([])

    const created = (await invoke('profiles:create', {
      name: 'Wiring',
      baseUrl: 'https://platform.example/workflow/v1',
      authUrl: 'https://platform.example/auth',
      reportUrl: 'https://platform.example/reports',
      serviceId: 'dsp',
      auth: { method: 'password', username: 'ops', password: 'secret' },
    })) as { ok: true; value: { id: string } }
    expect(created).toMatchObject({ ok: true })
    refuseDeletes = true
    // The delete succeeds for the user; the secret left in the keychain is what the notice is about.
    expect(await invoke('profiles:delete', { id: created.value.id })).toEqual({ ok: true, value: null })

    expect(noticesSent()).toEqual([
      {
        channel: eventChannel('onNotice'),
        payload: expect.objectContaining({
          id: expect.any(String),
          level: 'warning',
          message: expect.stringContaining('could not be removed from the system keychain'),
        }),
      },
    ])
  })

  it('registers adopsdesk:// and opens preset links (the launching one, macOS open-url, a second launch) once the page listens', () => {
    expect(fake.app.protocolClients).toEqual(['adopsdesk'])
    const opened = () => contents.sent.filter((message) => message.channel === eventChannel('onOpenPreset')).map((message) => message.payload)
    let prevented = false
    fake.app.emit('open-url', { preventDefault: () => (prevented = true) }, 'adopsdesk://preset/Weekly%20EU%20%2F%20revenue')
    expect(prevented).toBe(true)
    // The page has not loaded yet: nothing is sent into the void.
    expect(opened()).toEqual([])
    contents.emit('did-finish-load')
    expect(opened()).toEqual([{ name: 'Launch link' }, { name: 'Weekly EU / revenue' }])

    // Windows and Linux: the second process's arguments, with the trailing slash Windows adds.
    fake.app.emit(
      'second-instance',
      {},
      ['C:\\Program Files\\AdOps Desk\\AdOps Desk.exe', '--allow-file-access-from-files', 'adopsdesk://preset/Daily%20caf%C3%A9/'],
      'C:\\',
    )
    fake.app.emit('second-instance', {}, ['/usr/bin/adops-desk'], '/home/ops')
    expect(opened()).toEqual([{ name: 'Launch link' }, { name: 'Weekly EU / revenue' }, { name: 'Daily café' }])

    // A link of ours that names no preset is explained, not ignored.
    fake.app.emit('open-url', { preventDefault: () => undefined }, 'adopsdesk://preset/')
    const notices = contents.sent.filter((message) => message.channel === eventChannel('onNotice')).map((message) => message.payload)
    expect(notices.at(-1)).toMatchObject({ level: 'warning', message: 'The link names no preset. Nothing was opened.' })
    expect(opened()).toHaveLength(3)
  })

  const own = () => ({ sender: contents, senderFrame: contents.mainFrame })
  const invoke = async (channel: string, input: unknown): Promise<unknown> => {
    const handler = fake.handlers.get(channel)
    if (!handler) throw new Error(`${channel} not registered`)
    return handler(own(), input)
  }
  const sentOn = (event: 'onMenuCommand' | 'onThemeChanged' | 'onNotice') =>
    contents.sent.filter((message) => message.channel === eventChannel(event)).map((message) => message.payload)
  const menuItems = (): MenuItemConstructorOptions[] => {
    const flatten = (list: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] =>
      list.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? flatten(item.submenu) : [])])
    return flatten(fake.menus.installed?.template ?? [])
  }
  const click = (id: string): void => {
    const item = menuItems().find((candidate) => candidate.id === id)
    if (!item?.click) throw new Error(`no menu item ${id}`)
    ;(item.click as () => void)()
  }

  it('installs the application menu with every command of the contract and its accelerator, and no reload', () => {
    const items = menuItems()
    for (const command of menuCommands) expect(items.find((item) => item.id === command.id)?.accelerator, command.id).toBe(command.accelerator ?? undefined)
    expect(items.map((item) => item.role)).not.toContain('reload')
    expect(items.map((item) => item.role)).toEqual(expect.arrayContaining(['undo', 'copy', 'paste', 'toggleDevTools']))
  })

  it('sends a menu command to the page as onMenuCommand; opening the logs folder main does itself', async () => {
    click('newEntity')
    click('commandPalette')
    expect(sentOn('onMenuCommand')).toEqual([{ command: 'newEntity' }, { command: 'commandPalette' }])
    click('openLogsFolder')
    await vi.waitFor(() => expect(fake.openedPaths).toEqual([path.join(userData, 'electron-logs')]))
    expect(sentOn('onMenuCommand')).toHaveLength(2)
  })

  it('opens the window back on a screen that exists, at a size that fits, maximised as it was; and saves where it goes', async () => {
    const window = fake.windows[0]
    if (!window) throw new Error('no window')
    expect(window.options).toMatchObject({ x: 0, y: 0, width: 1440, height: 875 })
    expect(window.maximized).toBe(false)
    window.emit('ready-to-show')
    expect(window.maximized).toBe(true)
    window.maximized = false
    window.bounds = { x: 40, y: 30, width: 1200, height: 800 }
    window.emit('unmaximize')
    window.emit('close')
    await vi.waitFor(async () =>
      expect(JSON.parse(await fs.readFile(path.join(userData, 'window-state.json'), 'utf8'))).toEqual({
        version: 1,
        bounds: { x: 40, y: 30, width: 1200, height: 800 },
        maximized: false,
      }),
    )
  })

  it("reaches the OS scheduler only through the desktop's runner, never the real user's", async () => {
    expect(await invoke('schedules:list', {})).toMatchObject({ ok: true, value: { osEntry: { installed: false } } })
    if (process.platform === 'linux') {
      expect(schedulerCalls).toEqual(['systemctl --user show-environment', 'crontab -l'])
      expect(await invoke('schedules:list', {})).toMatchObject({ ok: true, value: { osEntry: { kind: null } } })
    }
    if (process.platform === 'win32') expect(schedulerCalls).toContain('schtasks /Query /TN AdOps Desk schedules')
  })

  it('follows the OS theme until one is pinned, and tells the page each time the theme in effect changes', async () => {
    expect(fake.nativeTheme.themeSource).toBe('system')
    expect(await invoke('app:info', {})).toMatchObject({
      ok: true,
      value: { theme: { setting: 'system', effective: 'dark' }, capabilities: { nativeMenu: true, openFolders: true } },
    })
    expect(await invoke('app:setTheme', { theme: 'light' })).toEqual({ ok: true, value: { setting: 'light', effective: 'light' } })
    expect(fake.nativeTheme.themeSource).toBe('light')
    fake.nativeTheme.switchOs(false)
    expect(await invoke('app:setTheme', { theme: 'system' })).toEqual({ ok: true, value: { setting: 'system', effective: 'light' } })
    fake.nativeTheme.switchOs(true)
    await vi.waitFor(() => expect(sentOn('onThemeChanged')).toHaveLength(3))
    expect(sentOn('onThemeChanged')).toEqual([
      { setting: 'light', effective: 'light' },
      { setting: 'system', effective: 'light' },
      { setting: 'system', effective: 'dark' },
    ])
  })

  it('answers About without a path, and opens the data and logs folders itself', async () => {
    const about = (await invoke('app:about', {})) as { ok: true; value: Record<string, unknown> }
    expect(about).toMatchObject({
      ok: true,
      value: { name: 'AdOps Desk', version: '0.1.0', node: process.versions.node, dataFolder: "the app's data folder", licenses: [] },
    })
    expect(JSON.stringify(about.value)).not.toContain(userData)
    expect(await invoke('app:openDataFolder', {})).toEqual({ ok: true, value: null })
    expect(fake.openedPaths.at(-1)).toBe(userData)
  })

  it('loads the page again when its renderer dies, a few times at most', () => {
    for (let crash = 0; crash < 5; crash += 1) contents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 139 })
    expect(contents.reloads).toBe(3)
  })

  it('logs an error nobody caught in main or the page and shows it once as a notice, instead of crashing', async () => {
    const before = sentOn('onNotice').length
    processEvents.emit('unhandledRejection', new Error('the export stream broke'))
    processEvents.emit('unhandledRejection', new Error('the export stream broke'))
    expect(await invoke('app:reportRendererError', { kind: 'error', message: 'TypeError: rows is undefined', stack: 'at render (index.js:1:1)' })).toEqual({
      ok: true,
      value: null,
    })
    const notices = sentOn('onNotice').slice(before) as Array<{ message: string }>
    expect(notices.map((notice) => notice.message)).toEqual([
      expect.stringContaining('in the background (the export stream broke)'),
      expect.stringContaining('on this screen (TypeError: rows is undefined)'),
    ])
    await vi.waitFor(async () => {
      const log = await fs.readFile(path.join(userData, 'electron-logs', 'main.log'), 'utf8')
      expect(log).toContain('unhandled unhandledRejection in main: the export stream broke')
      expect(log).toContain('unhandled error in renderer: TypeError: rows is undefined')
    })
  })
})

/** Starts the app on a fresh stand-in: packaged or not, with ELECTRON_RENDERER_URL as given. */
async function startWith(
  isPackaged: boolean,
  rendererDevUrl: string | undefined,
  processEvents = new EventEmitter(),
): Promise<ReturnType<typeof createFakeElectron>> {
  const out = await temporaryFolder('adops-out-')
  await fs.mkdir(path.join(out, 'renderer'), { recursive: true })
  await fs.writeFile(path.join(out, 'renderer', 'index.html'), '<!doctype html><title>AdOps Desk</title>')
  const fake = createFakeElectron(await temporaryFolder(), { isPackaged })
  await startApp(fake.electron, {
    mainDir: path.join(out, 'main'),
    rendererDevUrl,
    openKeychain: async () => createMemoryKeychain(),
    loadSandbox: () => Promise.reject(new Error('no demo in this test')),
    // Neither the test runner's `process` nor the user's scheduler.
    processEvents,
    runSchedulerCommand: async () => ({ code: 127, stdout: '', stderr: '' }),
  })
  return fake
}

/** What app:info answers to a main frame at `url`: the sender check follows the page the window loaded. */
async function answerTo(fake: ReturnType<typeof createFakeElectron>, url: string): Promise<unknown> {
  const window = fake.windows[0]
  const handler = fake.handlers.get('app:info')
  if (!window || !handler) throw new Error('the app did not start')
  const sender = { ...window.webContents, mainFrame: { url } }
  return handler({ sender, senderFrame: sender.mainFrame }, {})
}

describe('a packaged build', () => {
  it('turns DevTools off', async () => {
    const fake = await startWith(true, undefined)
    expect((fake.windows[0]?.options.webPreferences as Record<string, unknown>).devTools).toBe(false)
  })

  it('ignores ELECTRON_RENDERER_URL, hostile or not: it loads and trusts only app://', async () => {
    for (const url of ['https://evil.example/', 'http://127.0.0.1:5173/']) {
      const fake = await startWith(true, url)
      expect(fake.windows[0]?.loadedUrl, url).toBe('app://adops/index.html')
      expect(await answerTo(fake, url), url).toMatchObject({ ok: false, error: { code: 'forbidden' } })
      expect(await answerTo(fake, 'app://adops/index.html'), url).toMatchObject({ ok: true })
    }
  })
})

describe('ELECTRON_RENDERER_URL when not packaged (npm run dev)', () => {
  it('is honoured for a loopback http address', async () => {
    for (const url of ['http://localhost:5173/', 'http://127.0.0.1:5173/', 'http://[::1]:5173/']) {
      const fake = await startWith(false, url)
      expect(fake.windows[0]?.loadedUrl, url).toBe(url)
      expect(await answerTo(fake, url), url).toMatchObject({ ok: true })
    }
  })

  it('is ignored for anything else: the app loads app:// and trusts only it', async () => {
    for (const url of [
      'https://evil.example/',
      'http://evil.example:5173/',
      'http://localhost.evil.example:5173/',
      'https://localhost:5173/',
      'file:///etc/passwd',
      'http://user:pw@127.0.0.1:5173/',
      'javascript:alert(1)',
      'not a url',
    ]) {
      const fake = await startWith(false, url)
      expect(fake.windows[0]?.loadedUrl, url).toBe('app://adops/index.html')
      expect(await answerTo(fake, url), url).toMatchObject({ ok: false, error: { code: 'forbidden' } })
    }
  })
})

describe('quitting', () => {
  it("stops listening for the process's unhandled errors with the runtime", async () => {
    const processEvents = new EventEmitter()
    const fake = await startWith(true, undefined, processEvents)
    expect(processEvents.listenerCount('unhandledRejection')).toBe(1)
    expect(processEvents.listenerCount('uncaughtException')).toBe(1)
    fake.app.emit('will-quit')
    await vi.waitFor(() => expect(processEvents.listenerCount('unhandledRejection') + processEvents.listenerCount('uncaughtException')).toBe(0))
  })
})
