import path from 'node:path'
import { eventChannel } from '@contract'
import { APP_ORIGIN, handleAppProtocol, registerAppScheme } from './electron/app-protocol'
import { devRendererUrl } from './electron/dev-url'
import { hardenSession, hardenWebContents } from './electron/security'
import type { ElectronModule } from './electron/types'
import { createMainWindow } from './electron/window'
import { createSaveDialog } from './electron/dialogs'
import type { BrowserWindow } from 'electron'
import { registerIpc } from './ipc'
import { createRuntime, type LoadSandbox } from './runtime'
import { KEYCHAIN_SERVICE } from './services/app-identity'
import type { Keychain } from './services/secrets/keychain'

export interface StartOptions {
  /** The folder holding the built main bundle; preload and renderer sit beside it in out/. */
  mainDir: string
  /** The vite dev server (ELECTRON_RENDERER_URL); used only when not packaged and on loopback. */
  rendererDevUrl?: string | undefined
  openKeychain: () => Promise<Keychain>
  /** Loads the embedded demo backend (main/sandbox) when the demo first opens. */
  loadSandbox: LoadSandbox
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

  await app.whenReady()
  hardenSession(electron.session.defaultSession)
  const rendererDir = path.join(options.mainDir, '..', 'renderer')
  handleAppProtocol(electron.protocol, electron.net, rendererDir)

  let window: BrowserWindow | null = null
  const runtime = await createRuntime({
    userDataDir: app.getPath('userData'),
    openKeychain: options.openKeychain,
    keychainServiceName: KEYCHAIN_SERVICE,
    environment: { version: app.getVersion(), platform: process.platform },
    loadSandbox: options.loadSandbox,
    saveDialog: createSaveDialog(electron.dialog, () => window, app.getPath('downloads')),
    // Events go to the window while it is open; with it closed (the app is quitting) they go nowhere.
    sendEvent: (event, payload) => {
      if (window && !window.isDestroyed()) window.webContents.send(eventChannel(event), payload)
    },
  })

  // The dev server only from source and on loopback (dev-url.ts); otherwise the app's own pages.
  const rendererDevUrl = devRendererUrl(options.rendererDevUrl, app.isPackaged)
  const pageOrigin = rendererDevUrl ? originOf(rendererDevUrl) : APP_ORIGIN
  const isAppUrl = (url: string): boolean => originOf(url) === pageOrigin
  registerIpc(electron.ipcMain, runtime.handlers, isAppUrl)

  const preloadPath = path.join(options.mainDir, '..', 'preload', 'index.cjs')
  const created = createMainWindow(electron, preloadPath, rendererDevUrl ?? `${APP_ORIGIN}/index.html`)
  window = created
  created.on('closed', () => {
    window = null
  })
  // With the single-instance lock, a second launch focuses the first window instead.
  app.on('second-instance', () => {
    if (created.isDestroyed()) return
    if (created.isMinimized()) created.restore()
    created.focus()
  })

  app.on('window-all-closed', () => app.quit())
  app.on('will-quit', () => {
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
