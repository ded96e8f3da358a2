import { reactive } from 'vue'
import type { MenuCommandId } from '@contract'
import { useCommand } from '../../shell/commands'
import { sections } from '../../shell/sections'
import { useNavigationStore } from '../../stores/navigation'
import { useThemeStore } from '../../stores/theme'

/** What the palette lists: everything, or only the connections (File → Switch Connection…). */
export type PaletteScope = 'all' | 'connections'

export interface ShellOverlays {
  palette: { show: boolean; scope: PaletteScope }
  shortcuts: boolean
}

/** The menu's positional "Go to Section N" commands, in the order of the sections' list. */
export const goToSectionCommands: readonly MenuCommandId[] = ['goToSection1', 'goToSection2', 'goToSection3', 'goToSection4']

/**
 * The commands the shell itself answers on every screen: the palette, the shortcuts overlay,
 * the sections, the theme and the connection. Returns the overlays' state for the shell to show.
 */
export function useShellCommands(): ShellOverlays {
  const navigation = useNavigationStore()
  const theme = useThemeStore()
  const overlays = reactive<ShellOverlays>({ palette: { show: false, scope: 'all' }, shortcuts: false })

  function openPalette(scope: PaletteScope): void {
    overlays.shortcuts = false
    overlays.palette = { show: true, scope }
  }

  // Ctrl/Cmd+K again closes the palette, as in editors.
  useCommand('commandPalette', () => {
    if (overlays.palette.show) overlays.palette.show = false
    else openPalette('all')
  })
  useCommand('switchConnection', () => openPalette('connections'))
  useCommand('keyboardShortcuts', () => {
    overlays.palette.show = false
    overlays.shortcuts = true
  })
  useCommand('toggleTheme', () => theme.toggle())
  // Only as many as there are sections: a missing one is not offered in the palette either.
  goToSectionCommands.forEach((id, index) => {
    const section = sections[index]
    if (section) useCommand(id, () => navigation.open(section.id))
  })
  return overlays
}
