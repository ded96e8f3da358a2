import type { App, BrowserWindow, IpcMain, Menu, NativeTheme, Net, Notification, Protocol, Screen, Shell, Session, Dialog } from 'electron'

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
}
