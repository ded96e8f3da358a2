import type { BrowserWindow, BrowserWindowConstructorOptions } from 'electron'
import type { ElectronModule } from './types'

/** `devTools`: false in the packaged app, where they would hand anyone at the keyboard a console into the page. */
export function mainWindowOptions(preloadPath: string, { devTools }: { devTools: boolean }): BrowserWindowConstructorOptions {
  return {
    width: 1320,
    height: 860,
    minWidth: 960,
    minHeight: 620,
    show: false,
    title: 'AdOps Desk',
    autoHideMenuBar: true,
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
      devTools,
    },
  }
}

export function createMainWindow(electron: ElectronModule, preloadPath: string, url: string): BrowserWindow {
  const window = new electron.BrowserWindow(mainWindowOptions(preloadPath, { devTools: !electron.app.isPackaged }))
  // Shown once painted, so the user never sees a white flash before the theme applies.
  window.once('ready-to-show', () => window.show())
  void window.loadURL(url)
  return window
}
