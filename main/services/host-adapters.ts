/**
 * What the host around main gives it: the one place that says what differs between the
 * Electron app (main/app.ts, main/electron/), the web host (main/hosts/web/) and a test.
 * The runtime (main/runtime.ts) takes all of it; the services take the part they use
 * (ServiceAdapters), so each adapter is declared, and explained, once.
 */
import type { EventName, EventPayload } from '@contract'
import type { AlertNotifier } from './alerts/service'
import type { RunningSandbox } from './connection/demo'
import type { ExportShell, ExportSignals } from './exports/signals'
import type { FileDialogs } from './files/dialogs'
import type { SelfLaunch } from './schedules/os-entries/entry-command'
import type { OsSchedulerAccess } from './schedules/os-entries/installer'
import type { Keychain } from './secrets/keychain'
import type { SystemTheme } from './workspace/theme'

/** Where main's events go: a window's webContents in Electron, a server-sent-events stream in the web host. */
export type EventSink = <E extends EventName>(event: E, payload: EventPayload<E>) => void

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

export interface HostAdapters {
  /** Opens the OS keychain (keytar in the app and the web host, a memory one in tests); called the first time a secret is read or written. */
  openKeychain: () => Promise<Keychain>
  /**
   * Loads the demo backend, called the first time the demo workspace opens, not before: the
   * sandbox (synthetic data, its own HTTP server) is a fair share of main, and most starts never open the demo.
   */
  loadSandbox: LoadSandbox
  /**
   * The OS open and save dialogs for every file main reads or writes on the page's behalf
   * (presets, exports, entity csv, charts), attached to the window (main/electron/dialogs.ts).
   * Absent where there are none (the web host): main then reads from and writes to fixed folders
   * in its data folder (files/folder-dialogs.ts), and app:info tells the page there is no native dialog.
   */
  dialogs?: FileDialogs
  /** False while the machine has no network (Electron's net.isOnline); absent where it cannot tell: taken as online. */
  isOnline?: () => boolean
  /** The taskbar's progress and OS notifications for export jobs (main/electron/export-signals.ts); absent in the web host. */
  exportSignals?: ExportSignals
  /** Opens a finished export or shows it in its folder (main/electron/export-signals.ts); absent in the web host, which says where the file is instead. */
  exportShell?: ExportShell
  /** OS notifications for fired alerts, whose click opens the alert (main/electron/export-signals.ts); absent in the web host. */
  alertNotifier?: AlertNotifier
  /** The OS theme (Electron's nativeTheme); absent in the web host, where the page follows the browser. */
  systemTheme?: SystemTheme
  /** Opens a folder in the OS file manager (Electron's shell.openPath); absent in the web host. */
  openFolder?: (folder: string) => Promise<void>
  /** Calls the listener when the machine wakes from sleep (Electron's powerMonitor `resume`); the scheduler looks again. Absent in the web host. Returns the unsubscribe. */
  onResume?: (listener: () => void) => () => void
  /** The host can stay in the tray / menu bar with no window, so schedules keep running (Electron). */
  background?: boolean
  /**
   * How this install starts its own command line, for the OS scheduler's entry (Electron: its
   * binary). Absent in the web host and tests: no OS entry is offered, so nothing there ever writes to the user's scheduler.
   */
  selfLaunch?: SelfLaunch
  /**
   * The user's scheduler as the desktop reaches it: the home folder its entry files go in, and how
   * its tools (systemctl, crontab, launchctl, schtasks) run. The OS entry needs both this and
   * `selfLaunch`; a test's stand-in desktop gives a temporary home and a runner of its own.
   */
  osScheduler?: OsSchedulerAccess
  /** The host has an application menu, which sends `onMenuCommand` (Electron). */
  nativeMenu?: boolean
  /** Where main's events go: the window's webContents, or the web host's event stream. */
  sendEvent: EventSink
}

/** The adapters the services themselves use; the rest are the runtime's (handlers, events, the demo loader). */
export type ServiceAdapters = Pick<
  HostAdapters,
  'openKeychain' | 'dialogs' | 'exportSignals' | 'exportShell' | 'systemTheme' | 'background' | 'selfLaunch' | 'osScheduler' | 'alertNotifier' | 'isOnline'
>
