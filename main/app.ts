import type { EventEmitter } from 'node:events'
import path from 'node:path'
import { eventChannel } from '@contract'
import { APP_ORIGIN, handleAppProtocol, registerAppScheme } from './electron/app-protocol'
import { devRendererUrl } from './electron/dev-url'
import { hardenSession, hardenWebContents } from './electron/security'
import type { ElectronModule } from './electron/types'
import { createMainWindow, mainWindowOptions } from './electron/window'
import { createAlertNotifier, createExportShell, createExportSignals } from './electron/export-signals'
import { listenForDeepLinks } from './electron/deep-links'
import { createBackgroundPresence } from './electron/background'
import { desktopAdapters, desktopRuntimeOptions, installDesktop, reloadWhenGone, scheduleAdapters } from './electron/desktop'
import { createWindowStateStore, placeWindow, trackWindowState, workAreasOf } from './electron/window-state'
import { createFileDialogs } from './electron/dialogs'
import type { BrowserWindow } from 'electron'
import { registerIpc } from './ipc'
import { createRuntime, type LoadSandbox } from './runtime'
import { KEYCHAIN_SERVICE } from './services/app-identity'
import type { CommandRunner } from './services/schedules/os-entries/installer'
import type { Keychain } from './services/secrets/keychain'

export interface StartOptions {
  /** The folder holding the built main bundle; preload and renderer sit beside it in out/. */
  mainDir: string
  /** The vite dev server (ELECTRON_RENDERER_URL); used only when not packaged and on loopback. */
  rendererDevUrl?: string | undefined
  openKeychain: () => Promise<Keychain>
  /** Loads the embedded demo backend (main/sandbox) when the demo first opens. */
  loadSandbox: LoadSandbox
  /** The process's arguments: a preset link that launched the app is among them (Windows, Linux). */
  argv?: readonly string[]
  /** Where unhandled rejections and uncaught exceptions are heard: `process`; a test gives its own. */
  processEvents: Pick<EventEmitter, 'on' | 'off'>
  /** Runs the OS scheduler's tools (systemctl, crontab, launchctl, schtasks): for real; a test gives its own, so it never reaches the user's scheduler. */
  runSchedulerCommand: CommandRunner
}

/**
 * The app's lifecycle. Takes the electron module as an argument so the wiring test can run
 * it against a stand-in and check every security setting and every channel.
 */
export async function startApp(electron: ElectronModule, options: StartOptions): Promise<void> {
  const { app } = electron
  registerAppScheme(electron.protocol)
  app.enableSandbox()
  if (!app.requestSingleInstanceLock()) {
    app.quit()
    return
  }
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, electron.shell))
  const links = listenForDeepLinks(app, options.argv ?? [])

  await app.whenReady()
  hardenSession(electron.session.defaultSession)
  const rendererDir = path.join(options.mainDir, '..', 'renderer')
  handleAppProtocol(electron.protocol, electron.net, rendererDir)

  let window: BrowserWindow | null = null
  const runtime = await createRuntime({
    userDataDir: app.getPath('userData'),
    keychainServiceName: KEYCHAIN_SERVICE,
    environment: { version: app.getVersion(), platform: process.platform },
    ...desktopRuntimeOptions(electron, options.mainDir),
    host: {
      openKeychain: options.openKeychain,
      loadSandbox: options.loadSandbox,
      dialogs: createFileDialogs(electron.dialog, () => window, app.getPath('downloads')),
      exportSignals: createExportSignals(electron.Notification, () => window),
      alertNotifier: createAlertNotifier(electron.Notification, () => window),
      // The alert watch checks nothing while the machine is offline.
      isOnline: () => (typeof electron.net.isOnline === 'function' ? electron.net.isOnline() : true),
      exportShell: createExportShell(electron.shell),
      // Events go to the window while it is open; with it closed (quitting, or in the tray) they go nowhere.
      sendEvent: (event, payload) => {
        if (window && !window.isDestroyed()) window.webContents.send(eventChannel(event), payload)
      },
      ...desktopAdapters(electron),
      ...scheduleAdapters(electron, options.runSchedulerCommand),
    },
  })
  installDesktop(electron, runtime, options.processEvents)

  // The dev server only from source and on loopback (dev-url.ts); otherwise the app's own pages.
  const rendererDevUrl = devRendererUrl(options.rendererDevUrl, app.isPackaged)
  const pageOrigin = rendererDevUrl ? originOf(rendererDevUrl) : APP_ORIGIN
  const isAppUrl = (url: string): boolean => originOf(url) === pageOrigin
  registerIpc(electron.ipcMain, runtime.handlers, isAppUrl)

  const preloadPath = path.join(options.mainDir, '..', 'preload', 'index.cjs')
  // Where the window was last time, corrected for the screens there are now.
  const windowState = createWindowStateStore(app.getPath('userData'), runtime.services.notices)
  const { width = 1320, height = 860, minWidth = 0, minHeight = 0 } = mainWindowOptions(preloadPath, { devTools: !app.isPackaged })
  const focus = (): void => {
    if (window === null || window.isDestroyed()) return
    if (window.isMinimized()) window.restore()
    window.focus()
  }

  /** The window: at start, and again from the tray when the app kept running without one. */
  async function openWindow(): Promise<void> {
    if (window !== null && !window.isDestroyed()) return focus()
    background.hide()
    const placement = placeWindow(await windowState.read(), workAreasOf(electron.screen), { width, height, minWidth, minHeight })
    const created = createMainWindow(electron, preloadPath, rendererDevUrl ?? `${APP_ORIGIN}/index.html`, placement)
    window = created
    trackWindowState(created, windowState)
    reloadWhenGone(created, runtime)
    created.on('closed', () => {
      if (window === created) window = null
    })
    // A preset (or board) link opens that preset (or board) in the window, once the page is there to listen.
    created.webContents.once('did-finish-load', () =>
      links.deliverTo((link) => {
        if ('name' in link) runtime.services.events.emit('onOpenPreset', { name: link.name })
        else if ('board' in link) runtime.services.events.emit('onOpenBoard', { name: link.board })
        else runtime.services.notices.add({ level: 'warning', message: `${link.problem} Nothing was opened.` })
        focus()
      }),
    )
  }
  const background = createBackgroundPresence(electron, {
    appName: app.getName(),
    open: () => void openWindow(),
    quit: () => app.quit(),
  })
  await openWindow()

  // With the single-instance lock, a second launch focuses the first window instead (opening it
  // again when the app runs in the tray), and hands over its preset link.
  app.on('second-instance', (_event, argv) => {
    if (window !== null && !window.isDestroyed()) {
      links.fromArgv(argv)
      focus()
    } else void openWindow().then(() => links.fromArgv(argv))
  })
  // macOS: a click on the Dock icon with no window open.
  app.on('activate', () => void openWindow())

  // Closing the window quits, unless the user chose to keep schedules running in the tray / menu bar.
  app.on('window-all-closed', () => {
    void runtime.services.schedules.keepRunning().then(
      (keep) => (keep ? background.show() : app.quit()),
      () => app.quit(),
    )
  })
  app.on('will-quit', () => {
    background.hide()
    void runtime.close()
  })
}

/**
 * scheme://host[:port] of a URL. Node's URL gives custom schemes such as app:// an opaque
 * "null" origin, so it is built by hand; an unparseable URL matches nothing.
 */
function originOf(url: string): string | null {
  try {
    const parsed = new URL(url)
    return `${parsed.protocol}//${parsed.host}`
  } catch {
    return null
  }
}
