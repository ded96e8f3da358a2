import type {
  App,
  BrowserWindow,
  IpcMain,
  Menu,
  NativeTheme,
  Net,
  Notification,
  Protocol,
  Screen,
  Shell,
  Session,
  Dialog,
  Tray,
  PowerMonitor,
  NativeImage,
} from 'electron'

/**
 * The parts of the electron module main uses. main/index.ts passes the real module; the
 * wiring test passes a stand-in, so the app's security settings are checked without Electron.
 */
export interface ElectronModule {
  app: App
  BrowserWindow: typeof BrowserWindow
  ipcMain: IpcMain
  protocol: Protocol
  net: Net
  shell: Shell
  dialog: Dialog
  Notification: typeof Notification
  session: { defaultSession: Session }
  Menu: Pick<typeof Menu, 'buildFromTemplate' | 'setApplicationMenu'>
  screen: Pick<Screen, 'getAllDisplays' | 'getPrimaryDisplay'>
  nativeTheme: NativeTheme
  /** The tray / menu-bar icon that keeps the app (and its schedules) running with no window. */
  Tray: typeof Tray
  nativeImage: { createFromDataURL(dataUrl: string): NativeImage }
  /** `resume`: the machine woke, the scheduler looks again. */
  powerMonitor: Pick<PowerMonitor, 'on' | 'off'>
}
