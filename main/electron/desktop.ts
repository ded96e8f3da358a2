import type { EventEmitter } from 'node:events'
import { promises as fs } from 'node:fs'
import path from 'node:path'
import type { BrowserWindow, Shell } from 'electron'
import type { HostAdapters, Runtime, RuntimeOptions } from '../runtime'
import { AppError } from '../services/errors'
import { watchProcessErrors } from '../services/logs/error-reporter'
import type { CommandRunner } from '../services/schedules/os-entries/installer'
import { installMenu } from './menu'
import { systemThemeOf } from './native-theme'
import type { ElectronModule } from './types'

/** Opens a folder of the app's in the OS file manager, making it first if nothing was written there yet. */
export function folderOpener(shell: Pick<Shell, 'openPath'>): (folder: string) => Promise<void> {
  return async (folder) => {
    await fs.mkdir(folder, { recursive: true })
    const failure = await shell.openPath(folder)
    if (failure !== '') throw new AppError('storage', `The folder could not be opened (${failure}).`)
  }
}

/** Where only the desktop app keeps things: Electron's log folder, the licenses beside the build. */
export function desktopRuntimeOptions(electron: ElectronModule, mainDir: string): Pick<RuntimeOptions, 'logsDir' | 'licensesFile'> {
  return {
    logsDir: electron.app.getPath('logs'),
    // build/licenses.mjs writes it beside out/main.
    licensesFile: path.join(mainDir, '..', 'licenses.json'),
  }
}

/** What only the desktop app has to offer: the OS theme, the application menu, opening folders. */
export function desktopAdapters(electron: ElectronModule): Pick<HostAdapters, 'systemTheme' | 'nativeMenu' | 'openFolder'> {
  return {
    systemTheme: systemThemeOf(electron.nativeTheme),
    nativeMenu: true,
    openFolder: folderOpener(electron.shell),
  }
}

/**
 * What the scheduler needs from the desktop: wake from sleep (powerMonitor `resume`), the tray
 * to stay in, how this install starts its own command line for the OS scheduler's entry, and the
 * user's scheduler itself (the home Electron reports, and the tools run by `run`).
 */
export function scheduleAdapters(electron: ElectronModule, run: CommandRunner): Pick<HostAdapters, 'onResume' | 'background' | 'selfLaunch' | 'osScheduler'> {
  return {
    onResume(listener) {
      electron.powerMonitor.on('resume', listener)
      return () => void electron.powerMonitor.off('resume', listener)
    },
    background: true,
    selfLaunch: {
      execPath: process.execPath,
      packaged: electron.app.isPackaged,
      // `electron .` from a checkout: Electron needs the app folder before the command.
      appPath: electron.app.isPackaged ? null : electron.app.getAppPath(),
      cliScript: null,
      env: process.env,
    },
    osScheduler: { homeDir: electron.app.getPath('home'), run },
  }
}

/**
 * The desktop around the runtime: errors nothing caught go to the log and a notice (never a
 * crash box), and the application menu sends its commands to the page (`onMenuCommand`),
 * except opening the logs folder, which main does itself.
 */
export function installDesktop(electron: ElectronModule, runtime: Runtime, processEvents: Pick<EventEmitter, 'on' | 'off'>): void {
  const { services } = runtime
  runtime.adopt(watchProcessErrors(processEvents, services.errors))
  const openFolder = folderOpener(electron.shell)
  installMenu(electron.Menu, {
    platform: process.platform,
    isPackaged: electron.app.isPackaged,
    appName: electron.app.getName(),
    run(command) {
      if (command === 'openLogsFolder') {
        openFolder(services.logsDir).catch((error: unknown) => services.log.warn('the logs folder could not be opened', { error: String(error) }))
      } else services.events.emit('onMenuCommand', { command })
    },
  })
}

const MAX_RELOADS = 3

/**
 * A page whose renderer died (a crash, the OS killing it) would stay blank: log it and load
 * the page again, a few times at most so a page that crashes on load does not loop.
 */
export function reloadWhenGone(window: BrowserWindow, runtime: Runtime): void {
  let reloads = 0
  window.webContents.on('render-process-gone', (_event, details) => {
    runtime.services.log.error(`the window's page stopped (${details.reason}, exit code ${details.exitCode})`)
    if (details.reason === 'clean-exit' || reloads >= MAX_RELOADS || window.isDestroyed()) return
    reloads += 1
    window.webContents.reload()
  })
}
