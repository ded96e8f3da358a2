/**
 * The one composition root of main: services, the handlers over them and the wiring of their
 * events, built the same way for every host. The Electron app (app.ts) and the web host
 * (hosts/web/) differ only in what they pass in: a save dialog or none, where events go,
 * the keychain, the retry policy.
 */
import { connectEvents, type EventSink } from './handlers/events'
import { createHandlers, type Handlers, type HostFeatures } from './handlers/handlers'
import { createServices, type Environment, type Services } from './services'
import type { SaveDialog } from './services/entities/entity-service'
import type { ExportShell, ExportSignals } from './services/exports/signals'
import type { FileDialogs } from './services/files/dialogs'
import type { HttpClientOptions } from './services/http/client'
import type { Keychain } from './services/secrets/keychain'
import type { SystemTheme } from './services/workspace/theme'
import type { RunningSandbox } from './services/connection/demo'

/** How the demo backend is started: on loopback, embedded (per-run credentials, no controls, JSON only, a Host check). */
export interface DemoBackendOptions {
  port: number
  host: '127.0.0.1'
  embedded: true
}

/**
 * Loads the embedded demo backend (main/sandbox). The app and the web host start it in a
 * worker thread (sandbox/in-worker.ts), so its requests never block main's event loop; a test
 * may pass the module itself (`() => import('./sandbox')`).
 */
export type LoadSandbox = () => Promise<{ startSandbox(options: DemoBackendOptions): Promise<RunningSandbox> }>

export interface RuntimeOptions {
  userDataDir: string
  openKeychain: () => Promise<Keychain>
  keychainServiceName: string
  environment: Environment
  /** The OS save dialog; null where there is none (the web host). app:info tells the page which. */
  saveDialog: SaveDialog | null
  /** Open and save dialogs for preset files: the OS's, or fixed folders in the data folder where there are none. */
  fileDialogs: FileDialogs
  /**
   * Called the first time the demo workspace opens, not before: the sandbox (synthetic data,
   * its own HTTP server) is a fair share of main, and most starts never open the demo.
   */
  loadSandbox: LoadSandbox
  /** The taskbar bar and OS notifications for export jobs; absent in the web host. */
  exportSignals?: ExportSignals
  /** Opens an exported file or shows it in its folder; absent in the web host, which says where the file is instead. */
  exportShell?: ExportShell
  /** Where main's events go: the window's webContents, or the web host's event stream. */
  sendEvent: EventSink
  http?: HttpClientOptions
  /** The rotating log's folder; default `<userData>/logs` (the web host). Electron passes app.getPath('logs'). */
  logsDir?: string
  /** The OS theme (Electron's nativeTheme); absent in the web host, where the page follows the browser. */
  systemTheme?: SystemTheme
  /** An application menu sends `onMenuCommand` (Electron). */
  nativeMenu?: boolean
  /** Opens a folder in the OS file manager (Electron's shell.openPath); absent in the web host. */
  openFolder?: (folder: string) => Promise<void>
  /** out/licenses.json (build/licenses.mjs), for About. */
  licensesFile?: string
}

export interface Runtime {
  services: Services
  handlers: Handlers
  /** Stops sending events and releases what the services hold (the demo server, sockets). */
  close(): Promise<void>
}

export async function createRuntime(options: RuntimeOptions): Promise<Runtime> {
  const services = createServices({
    userDataDir: options.userDataDir,
    openKeychain: options.openKeychain,
    keychainServiceName: options.keychainServiceName,
    environment: options.environment,
    // The demo backend listens on loopback only, with credentials of its own for this run.
    startSandbox: async ({ port }) => (await options.loadSandbox()).startSandbox({ port, host: '127.0.0.1', embedded: true }),
    saveDialog: options.saveDialog,
    fileDialogs: options.fileDialogs,
    ...(options.exportSignals ? { exportSignals: options.exportSignals } : {}),
    ...(options.exportShell ? { exportShell: options.exportShell } : {}),
    ...(options.http ? { http: options.http } : {}),
    ...(options.logsDir === undefined ? {} : { logsDir: options.logsDir }),
    systemTheme: options.systemTheme ?? null,
  })
  await services.start()
  const { openFolder } = options
  const host: HostFeatures = {
    nativeSaveDialog: options.saveDialog !== null,
    nativeMenu: options.nativeMenu ?? false,
    // The page names a folder, never a path: main knows where each one is.
    ...(openFolder === undefined ? {} : { openFolder: (folder) => openFolder(folder === 'logs' ? services.logsDir : options.userDataDir) }),
    ...(options.licensesFile === undefined ? {} : { licensesFile: options.licensesFile }),
  }
  const handlers = createHandlers(services, host)
  const disconnect = connectEvents(services, options.sendEvent)
  return {
    services,
    handlers,
    async close() {
      disconnect()
      await services.close()
    },
  }
}
