// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest'
import { createPinia, setActivePinia } from 'pinia'
import { effectScope } from 'vue'
import type { BoardSummary, PresetSummary, Profile } from '@contract'
import { rememberEntry, usePaletteEntries } from '../../../../renderer/src/composables/shell/usePaletteEntries'
import { handleCommand } from '../../../../renderer/src/shell/commands'
import { useAppStore } from '../../../../renderer/src/stores/app'
import { useBoardsStore } from '../../../../renderer/src/stores/boards'
import { useExportsStore } from '../../../../renderer/src/stores/exports'
import { useNavigationStore } from '../../../../renderer/src/stores/navigation'
import { usePresetsStore } from '../../../../renderer/src/stores/presets'
import { useProfilesStore } from '../../../../renderer/src/stores/profiles'
import { DEMO_PROFILE_ID, useWorkspaceStore } from '../../../../renderer/src/stores/workspace'

const demo = { id: DEMO_PROFILE_ID, name: 'Demo workspace', isDemo: true } as Profile
const staging = { id: 'p-staging', name: 'Staging', isDemo: false } as Profile
const preset = { name: 'Weekly supply', project: 'demo', report: 'supply' } as PresetSummary

function entries() {
  const scope = effectScope()
  const list = scope.run(() => usePaletteEntries())
  if (!list) throw new Error('no entries')
  return list
}

describe('usePaletteEntries', () => {
  beforeEach(() => setActivePinia(createPinia()))

  it('lists the sections with their keys, the connections, and presets only with a connection open', () => {
    useProfilesStore().profiles = [demo, staging]
    usePresetsStore().presets = [preset]
    const list = entries()
    expect(list.value.filter((entry) => entry.group === 'Go to').map((entry) => [entry.label, entry.shortcut])).toEqual([
      ['Entities', 'Ctrl+1'],
      ['Reports', 'Ctrl+2'],
      ['Connections', 'Ctrl+3'],
      ['Settings', 'Ctrl+4'],
      // The watching sections come after the four the number keys reach.
      ['Schedules', undefined],
      ['Alerts', undefined],
      ['Boards', undefined],
      ['Analysis', undefined],
      ['Change log', undefined],
      // Exports is in the rail, so it is in the palette too.
      ['Exports', undefined],
    ])
    expect(list.value.filter((entry) => entry.group === 'Connection').map((entry) => entry.label)).toEqual(['Demo workspace', 'Staging'])
    expect(list.value.some((entry) => entry.group === 'Preset')).toBe(false)

    useWorkspaceStore().active = demo
    expect(list.value.find((entry) => entry.id === `connection:${DEMO_PROFILE_ID}`)?.detail).toBe('active')
    const opened = list.value.find((entry) => entry.id === 'preset:Weekly supply')
    expect(opened?.detail).toBe('demo / supply')
    opened?.run()
    // The user chose it: Reports opens it without the question an adopsdesk:// link is asked.
    expect(usePresetsStore().picked).toBe('Weekly supply')
    expect(usePresetsStore().requested).toBeNull()
    expect(useNavigationStore().section).toBe('reports')
  })

  it('opens the Exports list over the section shown, as the rail does', () => {
    useNavigationStore().open('boards')
    entries()
      .value.find((entry) => entry.label === 'Exports')
      ?.run()
    expect(useExportsStore().panelOpen).toBe(true)
    expect(useNavigationStore().section).toBe('boards')
  })

  it('lists the boards with a connection open; choosing one opens it in Boards', () => {
    useBoardsStore().boards = [{ name: 'Monday board', description: '', savedAt: '', tiles: 4, presets: [] } satisfies BoardSummary]
    const list = entries()
    expect(list.value.some((entry) => entry.group === 'Board')).toBe(false)
    useWorkspaceStore().active = demo
    const board = list.value.find((entry) => entry.id === 'board:Monday board')
    expect(board?.detail).toBe('4 tiles')
    board?.run()
    expect(useBoardsStore().openName).toBe('Monday board')
    expect(useNavigationStore().section).toBe('boards')
  })

  it('offers a menu command only while something on screen handles it, with its keys for this platform', () => {
    const list = entries()
    expect(list.value.some((entry) => entry.id === 'command:runReport')).toBe(false)
    const remove = handleCommand('runReport', () => undefined)
    expect(list.value.find((entry) => entry.id === 'command:runReport')?.shortcut).toBe('Ctrl+Enter')
    useAppStore().platform = 'darwin'
    expect(list.value.find((entry) => entry.id === 'command:runReport')?.shortcut).toBe('⌘↩')
    remove()
    expect(list.value.some((entry) => entry.id === 'command:runReport')).toBe(false)
    // The palette does not list itself, nor the positional section commands it lists by name.
    const removals = [handleCommand('commandPalette', () => undefined), handleCommand('goToSection1', () => undefined)]
    expect(list.value.some((entry) => entry.id === 'command:commandPalette' || entry.id === 'command:goToSection1')).toBe(false)
    for (const removal of removals) removal()
  })

  it('puts recently used entries first, the latest on top', () => {
    useProfilesStore().profiles = [demo, staging]
    const list = entries()
    rememberEntry('section:connections')
    rememberEntry('connection:p-staging')
    expect(list.value.slice(0, 3).map((entry) => entry.id)).toEqual(['connection:p-staging', 'section:connections', 'section:entities'])
  })
})
