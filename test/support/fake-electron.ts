import { promises as fs } from 'node:fs'
import { fileURLToPath } from 'node:url'
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
export function createFakeElectron(userDataDir: string, options: { isPackaged?: boolean } = {}) {
  const app = Object.assign(new Emitter(), {
    /** Whether it runs as the packaged app (false: `electron .` from a build, or `npm run dev`). */
    isPackaged: options.isPackaged ?? false,
    sandboxEnabled: false,
    quitCalled: false,
    enableSandbox() {
      app.sandboxEnabled = true
    },
    requestSingleInstanceLock: () => true,
    quit() {
      app.quitCalled = true
    },
    exit() {},
    whenReady: () => Promise.resolve(),
    getPath: (name: string) => (name === 'userData' ? userDataDir : `/tmp/${name}`),
    getVersion: () => '0.1.0',
  })
  const windows: FakeBrowserWindow[] = []

  class FakeBrowserWindow extends Emitter {
    readonly webContents = new FakeWebContents()
    loadedUrl = ''
    constructor(readonly options: Record<string, unknown>) {
      super()
      windows.push(this)
      app.emit('web-contents-created', {}, this.webContents)
    }
    async loadURL(url: string): Promise<void> {
      this.loadedUrl = url
    }
    isDestroyed = () => false
    isMinimized = () => false
    restore() {}
    focus() {}
    show() {}
  }

  const handlers = new Map<string, (event: unknown, input: unknown) => Promise<unknown>>()
  const permission = { request: undefined as undefined | Listener, check: undefined as undefined | Listener }
  const protocols = { privileged: [] as unknown[], handlers: new Map<string, (request: Request) => Promise<Response>>() }
  const opened: string[] = []

  const electron = {
    app,
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
      async fetch(url: string) {
        return new Response(await fs.readFile(fileURLToPath(url)), { headers: { 'content-type': 'text/html' } })
      },
    },
    shell: {
      async openExternal(url: string) {
        opened.push(url)
      },
    },
    dialog: { showErrorBox() {} },
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
  return { electron: electron as unknown as ElectronModule, app, windows, handlers, permission, protocols, opened }
}
