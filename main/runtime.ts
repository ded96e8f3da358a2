/**
 * The composition root of main, the only one: services, the handlers over them and the wiring
 * of their events, built the same way for every host, in one lifetime that close() disposes.
 * The Electron app (app.ts) and the web host (hosts/web/) differ only in the host adapters
 * they pass in (services/host-adapters.ts) and a few settings (where logs go, the retry policy).
 */
import { connectEvents } from './handlers/events'
import { createHandlers, type Handlers, type HostFeatures } from './handlers/handlers'
import { createServices, type Environment, type Services } from './services'
import type { HostAdapters } from './services/host-adapters'
import type { HttpClientOptions } from './services/http/client'
import { DisposableStore, toDisposable } from './services/lifecycle/disposables'

export type { DemoBackendOptions, HostAdapters, LoadSandbox } from './services/host-adapters'

export interface RuntimeOptions {
  userDataDir: string
  keychainServiceName: string
  environment: Environment
  /** What the host gives main: dialogs, the keychain, where events go… (services/host-adapters.ts). */
  host: HostAdapters
  http?: HttpClientOptions
  /** The rotating log's folder; default `<userData>/logs` (the web host). Electron passes app.getPath('logs'). */
  logsDir?: string
  /** out/licenses.json (build/licenses.mjs), for About. */
  licensesFile?: string
  /** Default true (ServicesOptions.engineWarmUp). */
  engineWarmUp?: boolean
}

export interface Runtime {
  services: Services
  handlers: Handlers
  /**
   * Releases everything in the reverse order it was built: events stop first, then the
   * services from the last built to the first (export jobs, runs, connections, sockets, the log).
   */
  close(): Promise<void>
  /** Ties a subscription made around the runtime (the desktop's) to its lifetime: undone at close, before the services go. */
  adopt(undo: () => void): void
}

export async function createRuntime(options: RuntimeOptions): Promise<Runtime> {
  const { host } = options
  const lifetime = new DisposableStore()
  try {
    const services = createServices(
      {
        userDataDir: options.userDataDir,
        keychainServiceName: options.keychainServiceName,
        environment: options.environment,
        host,
        // The demo backend listens on loopback only, with credentials of its own for this run.
        startSandbox: async ({ port }) => (await host.loadSandbox()).startSandbox({ port, host: '127.0.0.1', embedded: true }),
        ...(options.http ? { http: options.http } : {}),
        ...(options.logsDir === undefined ? {} : { logsDir: options.logsDir }),
        ...(options.engineWarmUp === undefined ? {} : { engineWarmUp: options.engineWarmUp }),
      },
      lifetime,
    )
    await services.start()
    // The scheduler lives in main (a hidden page's timers are throttled): it starts with the
    // services, runs missed slots once, and looks again when the machine wakes.
    await services.schedules.start()
    // Rules are checked without a schedule too: shortly after start, then every 30 minutes.
    services.alertWatch.start()
    const { onResume } = host
    if (onResume !== undefined)
      lifetime.add(
        toDisposable(
          onResume(() => {
            void services.schedules.wake()
            services.alertWatch.soon()
          }),
        ),
      )
    const { openFolder } = host
    const features: HostFeatures = {
      nativeSaveDialog: host.dialogs !== undefined,
      nativeMenu: host.nativeMenu ?? false,
      // The page names a folder, never a path: main knows where each one is.
      ...(openFolder === undefined ? {} : { openFolder: (folder) => openFolder(folder === 'logs' ? services.logsDir : options.userDataDir) }),
      ...(options.licensesFile === undefined ? {} : { licensesFile: options.licensesFile }),
    }
    const handlers = createHandlers(services, features)
    lifetime.add(toDisposable(connectEvents(services, host.sendEvent)))
    return { services, handlers, close: () => lifetime.dispose(), adopt: (undo) => void lifetime.add(toDisposable(undo)) }
  } catch (error) {
    // What was built before the failure holds sockets, files and subscriptions: release it, last
    // built first. The caller learns why the start failed; a release that fails too is secondary.
    await lifetime.dispose().catch(() => undefined)
    throw error
  }
}
