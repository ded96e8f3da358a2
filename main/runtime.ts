/**
 * The one composition root of main: services, the handlers over them and the wiring of their
 * events, built the same way for every host. The Electron app (app.ts) and the web host
 * (hosts/web/) differ only in what they pass in: a save dialog or none, where events go,
 * the keychain, the retry policy.
 */
import type { Capabilities } from '@contract'
import { connectEvents, type EventSink } from './handlers/events'
import { createHandlers, type Handlers } from './handlers/handlers'
import { createServices, type Environment, type Services } from './services'
import type { SaveDialog } from './services/entities/entity-service'
import type { HttpClientOptions } from './services/http/client'
import type { Keychain } from './services/secrets/keychain'
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
  /**
   * Called the first time the demo workspace opens, not before: the sandbox (synthetic data,
   * its own HTTP server) is a fair share of main, and most starts never open the demo.
   */
  loadSandbox: LoadSandbox
  /** Where main's events go: the window's webContents, or the web host's event stream. */
  sendEvent: EventSink
  http?: HttpClientOptions
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
    ...(options.http ? { http: options.http } : {}),
  })
  await services.start()
  const capabilities: Capabilities = { nativeSaveDialog: options.saveDialog !== null }
  const handlers = createHandlers(services, capabilities)
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
