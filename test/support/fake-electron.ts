import { promises as fs } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { MenuItemConstructorOptions, Rectangle } from 'electron'
import type { ElectronModule } from '../../main/electron/types'

type Listener = (...args: unknown[]) => unknown

/** Records listeners by event name, like Node's EventEmitter, so tests can fire them. */
class Emitter {
  readonly listeners = new Map<string, Listener[]>()
  on(event: string, listener: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener])
    return this
  }
  once(event: string, listener: Listener): this {
    return this.on(event, listener)
  }
  emit(event: string, ...args: unknown[]): unknown[] {
    return (this.listeners.get(event) ?? []).map((listener) => listener(...args))
  }
}

export class FakeWebContents extends Emitter {
  windowOpenHandler: ((details: { url: string }) => { action: string }) | undefined
  readonly mainFrame = { url: 'app://adops/index.html' }
  readonly sent: Array<{ channel: string; payload: unknown }> = []
  reloads = 0
  reload(): void {
    this.reloads += 1
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler
  }
  send(channel: string, payload: unknown): void {
    this.sent.push({ channel, payload })
  }
}

/**
 * A stand-in for the electron module: just enough behaviour for startApp to run, and a
 * record of everything it was asked to do, so the wiring test can check the settings.
 */
export interface FakeElectronOptions {
  /** The screens' work areas, the primary first; default one 1920×1080 screen. */
  displays?: Rectangle[]
  /** Whether the OS is in dark mode. */
  osDark?: boolean
  isPackaged?: boolean
}

/** nativeTheme: themeSource as Electron has it, and the OS's own choice, which a test can switch. */
export class FakeNativeTheme extends Emitter {
  private source: 'system' | 'light' | 'dark' = 'system'
  constructor(private osDark: boolean) {
    super()
  }
  get themeSource(): 'system' | 'light' | 'dark' {
    return this.source
  }
  /** Like Electron, a change of source that changes the colours in effect is reported as 'updated'. */
  set themeSource(source: 'system' | 'light' | 'dark') {
    const before = this.shouldUseDarkColors
    this.source = source
    if (this.shouldUseDarkColors !== before) this.emit('updated')
  }
  get shouldUseDarkColors(): boolean {
    return this.source === 'system' ? this.osDark : this.source === 'dark'
  }
  off(event: string, listener: Listener): this {
    this.listeners.set(
      event,
      (this.listeners.get(event) ?? []).filter((known) => known !== listener),
    )
    return this
  }
  /** The OS switching between light and dark, as Electron reports it. */
  switchOs(dark: boolean): void {
    this.osDark = dark
    this.emit('updated')
  }
}

/** A menu as the stand-in builds it: the template itself, so tests read labels, accelerators and clicks. */
export interface FakeMenu {
  template: MenuItemConstructorOptions[]
}

export function createFakeElectron(userDataDir: string, options: FakeElectronOptions = {}) {
  const app = Object.assign(new Emitter(), {
    isPackaged: options.isPackaged ?? false,
    getName: () => 'AdOps Desk',
    sandboxEnabled: false,
    quitCalled: false,
    enableSandbox() {
      app.sandboxEnabled = true
    },
    requestSingleInstanceLock: () => true,
    /** Schemes the app asked the OS to send it (deep links). */
    protocolClients: [] as string[],
    setAsDefaultProtocolClient(scheme: string) {
      app.protocolClients.push(scheme)
      return true
    },
    quit() {
      app.quitCalled = true
    },
    exit() {},
    whenReady: () => Promise.resolve(),
    getPath: (name: string) =>
      name === 'userData' ? userDataDir : name === 'logs' ? `${userDataDir}/electron-logs` : name === 'home' ? `${userDataDir}/home` : `/tmp/${name}`,
    getVersion: () => '0.1.0',
    getAppPath: () => '/src/adops-desk',
  })
  const windows: FakeBrowserWindow[] = []

  class FakeBrowserWindow extends Emitter {
    readonly webContents = new FakeWebContents()
    loadedUrl = ''
    bounds: Rectangle
    maximized = false
    shown = false
    constructor(readonly options: Record<string, unknown>) {
      super()
      windows.push(this)
      this.bounds = { x: Number(options.x ?? 0), y: Number(options.y ?? 0), width: Number(options.width), height: Number(options.height) }
      app.emit('web-contents-created', {}, this.webContents)
    }
    async loadURL(url: string): Promise<void> {
      this.loadedUrl = url
    }
    isDestroyed = () => false
    isMinimized = () => false
    isMaximized = () => this.maximized
    getNormalBounds = () => ({ ...this.bounds })
    restore() {}
    focus() {}
    show() {
      this.shown = true
    }
    maximize() {
      this.maximized = true
      this.shown = true
    }
  }

  const menus: { installed: FakeMenu | null } = { installed: null }
  const displays = (options.displays ?? [{ x: 0, y: 0, width: 1920, height: 1080 }]).map((workArea, id) => ({ id, workArea, bounds: workArea }))
  const nativeTheme = new FakeNativeTheme(options.osDark ?? false)

  const handlers = new Map<string, (event: unknown, input: unknown) => Promise<unknown>>()
  const permission = { request: undefined as undefined | Listener, check: undefined as undefined | Listener }
  const protocols = { privileged: [] as unknown[], handlers: new Map<string, (request: Request) => Promise<Response>>() }
  const opened: string[] = []
  const openedPaths: string[] = []

  /** Tray icons the app made: their menu, and whether they are gone. */
  const trays: FakeTray[] = []
  class FakeTray extends Emitter {
    menu: FakeMenu | null = null
    tooltip = ''
    destroyed = false
    constructor(readonly image: unknown) {
      super()
      trays.push(this)
    }
    setToolTip(text: string) {
      this.tooltip = text
    }
    setContextMenu(menu: FakeMenu) {
      this.menu = menu
    }
    destroy() {
      this.destroyed = true
    }
  }
  const powerMonitor = new Emitter()

  const electron = {
    app,
    Tray: FakeTray,
    nativeImage: { createFromDataURL: (url: string) => ({ url }) },
    powerMonitor: Object.assign(powerMonitor, {
      off(event: string, listener: Listener) {
        powerMonitor.listeners.set(
          event,
          (powerMonitor.listeners.get(event) ?? []).filter((known) => known !== listener),
        )
        return powerMonitor
      },
    }),
    BrowserWindow: FakeBrowserWindow,
    ipcMain: {
      handle(channel: string, handler: (event: unknown, input: unknown) => Promise<unknown>) {
        if (handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`)
        handlers.set(channel, handler)
      },
    },
    protocol: {
      registerSchemesAsPrivileged(schemes: unknown[]) {
        protocols.privileged.push(...schemes)
      },
      handle(scheme: string, handler: (request: Request) => Promise<Response>) {
        protocols.handlers.set(scheme, handler)
      },
    },
    net: {
      isOnline: () => true,
      async fetch(url: string) {
        return new Response(await fs.readFile(fileURLToPath(url)), { headers: { 'content-type': 'text/html' } })
      },
    },
    shell: {
      async openExternal(url: string) {
        opened.push(url)
      },
      async openPath(folder: string) {
        openedPaths.push(folder)
        return ''
      },
    },
    Menu: {
      buildFromTemplate: (template: MenuItemConstructorOptions[]): FakeMenu => ({ template }),
      setApplicationMenu(menu: FakeMenu) {
        menus.installed = menu
      },
    },
    screen: {
      getAllDisplays: () => displays,
      getPrimaryDisplay: () => displays[0],
    },
    nativeTheme,
    dialog: { showErrorBox() {} },
    /** Export notifications: recorded, never shown. */
    Notification: class {
      static isSupported(): boolean {
        return true
      }
      show(): void {}
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler(handler: Listener) {
          permission.request = handler
        },
        setPermissionCheckHandler(handler: Listener) {
          permission.check = handler
        },
      },
    },
  }
  return {
    electron: electron as unknown as ElectronModule,
    app,
    windows,
    handlers,
    permission,
    protocols,
    opened,
    openedPaths,
    menus,
    nativeTheme,
    trays,
    powerMonitor,
  }
}
