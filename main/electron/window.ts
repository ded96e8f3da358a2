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

/** Where the window opens (window-state.ts): saved bounds, corrected for today's screens. */
export interface WindowPlacement {
  bounds: { x?: number; y?: number; width: number; height: number }
  maximized: boolean
}

export function createMainWindow(electron: ElectronModule, preloadPath: string, url: string, placement?: WindowPlacement): BrowserWindow {
  const window = new electron.BrowserWindow({ ...mainWindowOptions(preloadPath, { devTools: !electron.app.isPackaged }), ...placement?.bounds })
  // Shown once painted, so the user never sees a white flash before the theme applies
  // (maximize() shows the window too, so it waits as well).
  window.once('ready-to-show', () => (placement?.maximized ? window.maximize() : window.show()))
  void window.loadURL(url)
  return window
}
