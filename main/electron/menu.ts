import type { Menu, MenuItemConstructorOptions } from 'electron'
import { menuCommand, type MenuCommandId } from '@contract'

export interface MenuOptions {
  platform: NodeJS.Platform
  /** DevTools are offered only in development. */
  isPackaged: boolean
  appName: string
  /** What a command does: most go to the page as `onMenuCommand`; main runs a few itself. */
  run(command: MenuCommandId): void
}

/**
 * The application menu as a template, built from the contract's `menuCommands` so the menu,
 * the palette and the shortcuts overlay say the same keys. Pure, so a test can read every item.
 * There is no reload role anywhere: Ctrl/Cmd+R is the app's Refresh, and reloading the page
 * would only lose what the user was doing.
 */
export function menuTemplate(options: MenuOptions): MenuItemConstructorOptions[] {
  const isMac = options.platform === 'darwin'
  const item = (id: MenuCommandId): MenuItemConstructorOptions => {
    const command = menuCommand(id)
    return {
      id,
      label: command.label,
      ...(command.accelerator === null ? {} : { accelerator: command.accelerator }),
      click: () => options.run(id),
    }
  }
  const separator: MenuItemConstructorOptions = { type: 'separator' }

  const appMenu: MenuItemConstructorOptions = {
    label: options.appName,
    submenu: [
      item('about'),
      separator,
      { role: 'services' },
      separator,
      { role: 'hide' },
      { role: 'hideOthers' },
      { role: 'unhide' },
      separator,
      { role: 'quit' },
    ],
  }
  const file: MenuItemConstructorOptions = {
    label: 'File',
    submenu: [
      item('newEntity'),
      item('save'),
      item('export'),
      item('runReport'),
      separator,
      item('switchConnection'),
      separator,
      isMac ? { role: 'close' } : { role: 'quit' },
    ],
  }
  // Roles, so undo, copy and paste reach text fields everywhere (on macOS only a menu gives them their keys).
  const edit: MenuItemConstructorOptions = {
    label: 'Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      separator,
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      ...(isMac ? [{ role: 'pasteAndMatchStyle' } as const] : []),
      { role: 'delete' },
      { role: 'selectAll' },
      separator,
      item('find'),
    ],
  }
  const view: MenuItemConstructorOptions = {
    label: 'View',
    submenu: [
      item('commandPalette'),
      item('refresh'),
      separator,
      item('goToSection1'),
      item('goToSection2'),
      item('goToSection3'),
      item('goToSection4'),
      separator,
      item('toggleTheme'),
      separator,
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      separator,
      { role: 'togglefullscreen' },
      ...(options.isPackaged ? [] : [separator, { role: 'toggleDevTools' } as const]),
    ],
  }
  const window: MenuItemConstructorOptions = {
    label: 'Window',
    submenu: isMac ? [{ role: 'minimize' }, { role: 'zoom' }, separator, { role: 'front' }] : [{ role: 'minimize' }, { role: 'close' }],
  }
  const help: MenuItemConstructorOptions = {
    label: 'Help',
    role: 'help',
    submenu: [item('keyboardShortcuts'), separator, item('openLogsFolder'), ...(isMac ? [] : [separator, item('about')])],
  }
  return [...(isMac ? [appMenu] : []), file, edit, view, window, help]
}

export function installMenu(electronMenu: Pick<typeof Menu, 'buildFromTemplate' | 'setApplicationMenu'>, options: MenuOptions): void {
  electronMenu.setApplicationMenu(electronMenu.buildFromTemplate(menuTemplate(options)))
}
