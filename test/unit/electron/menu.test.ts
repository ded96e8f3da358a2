import type { MenuItemConstructorOptions } from 'electron'
import { describe, expect, it } from 'vitest'
import { menuCommands, type MenuCommandId } from '@contract'
import { menuTemplate, type MenuOptions } from '../../../main/electron/menu'

/** Every item of a template, submenus flattened. */
function items(template: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return template.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? items(item.submenu) : [])])
}

function build(overrides: Partial<MenuOptions> = {}): { template: MenuItemConstructorOptions[]; ran: MenuCommandId[] } {
  const ran: MenuCommandId[] = []
  const template = menuTemplate({ platform: 'linux', isPackaged: true, appName: 'AdOps Desk', run: (command) => ran.push(command), ...overrides })
  return { template, ran }
}

const click = (item: MenuItemConstructorOptions | undefined): void => {
  if (!item?.click) throw new Error('the item has no click')
  ;(item.click as () => void)()
}

describe('the application menu', () => {
  it('has File, Edit, View, Window and Help; on macOS the app menu first', () => {
    expect(build().template.map((item) => item.label)).toEqual(['File', 'Edit', 'View', 'Window', 'Help'])
    expect(build({ platform: 'darwin' }).template.map((item) => item.label)).toEqual(['AdOps Desk', 'File', 'Edit', 'View', 'Window', 'Help'])
  })

  it("offers every command of the contract once, with the contract's label and accelerator", () => {
    for (const platform of ['linux', 'win32', 'darwin'] as const) {
      const all = items(build({ platform }).template)
      for (const command of menuCommands) {
        const found = all.filter((item) => item.id === command.id)
        expect(found, `${platform} ${command.id}`).toHaveLength(1)
        expect(found[0]?.label).toBe(command.label)
        expect(found[0]?.accelerator).toBe(command.accelerator ?? undefined)
      }
    }
  })

  it("gives the app's actions their shortcuts", () => {
    const byId = new Map(items(build().template).map((item) => [item.id, item.accelerator]))
    expect(
      Object.fromEntries(
        [
          'newEntity',
          'save',
          'refresh',
          'runReport',
          'export',
          'switchConnection',
          'find',
          'commandPalette',
          'goToSection1',
          'goToSection4',
          'keyboardShortcuts',
        ].map((id) => [id, byId.get(id)]),
      ),
    ).toEqual({
      newEntity: 'CmdOrCtrl+N',
      save: 'CmdOrCtrl+S',
      refresh: 'CmdOrCtrl+R',
      runReport: 'CmdOrCtrl+Enter',
      export: 'CmdOrCtrl+E',
      switchConnection: 'CmdOrCtrl+Shift+C',
      find: 'CmdOrCtrl+F',
      commandPalette: 'CmdOrCtrl+K',
      goToSection1: 'CmdOrCtrl+1',
      goToSection4: 'CmdOrCtrl+4',
      keyboardShortcuts: 'F1',
    })
  })

  it('never reloads the page: no reload role, and no two items share an accelerator', () => {
    const all = items(build({ isPackaged: false }).template)
    expect(all.filter((item) => item.role === 'reload' || item.role === 'forceReload')).toEqual([])
    const accelerators = all.map((item) => item.accelerator).filter((accelerator) => accelerator !== undefined)
    expect(new Set(accelerators).size).toBe(accelerators.length)
  })

  it('has the Edit roles, so undo, copy and paste work in text fields on macOS', () => {
    const edit = build({ platform: 'darwin' }).template.find((item) => item.label === 'Edit')
    const roles = (edit?.submenu as MenuItemConstructorOptions[]).map((item) => item.role).filter(Boolean)
    expect(roles).toEqual(expect.arrayContaining(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll']))
  })

  it('has zoom and full screen, and DevTools only when not packaged', () => {
    const roles = (packaged: boolean) => items(build({ isPackaged: packaged }).template).map((item) => item.role)
    expect(roles(true)).toEqual(expect.arrayContaining(['resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen']))
    expect(roles(true)).not.toContain('toggleDevTools')
    expect(roles(false)).toContain('toggleDevTools')
  })

  it('puts About in the app menu on macOS and in Help elsewhere', () => {
    const about = (platform: NodeJS.Platform) =>
      build({ platform }).template.find((menu) => (menu.submenu as MenuItemConstructorOptions[]).some((item) => item.id === 'about'))?.label
    expect(about('darwin')).toBe('AdOps Desk')
    expect(about('win32')).toBe('Help')
    const help = build().template.find((item) => item.label === 'Help')
    expect((help?.submenu as MenuItemConstructorOptions[]).map((item) => item.id).filter(Boolean)).toEqual(['keyboardShortcuts', 'openLogsFolder', 'about'])
  })

  it('runs the command of the item clicked', () => {
    const { template, ran } = build()
    const all = items(template)
    click(all.find((item) => item.id === 'newEntity'))
    click(all.find((item) => item.id === 'openLogsFolder'))
    click(all.find((item) => item.id === 'goToSection3'))
    expect(ran).toEqual(['newEntity', 'openLogsFolder', 'goToSection3'])
  })
})
