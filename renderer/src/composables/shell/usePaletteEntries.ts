import { computed, ref, type ComputedRef } from 'vue'
import { describeAccelerator, menuCommand, menuCommands, type MenuCommand } from '@contract'
import { canRunCommand, runCommand } from '../../shell/commands'
import { sections } from '../../shell/sections'
import { useAppStore } from '../../stores/app'
import { useBoardsStore } from '../../stores/boards'
import { useExportsStore } from '../../stores/exports'
import { useNavigationStore } from '../../stores/navigation'
import { usePresetsStore } from '../../stores/presets'
import { useProfilesStore } from '../../stores/profiles'
import { DEMO_PROFILE_ID, useWorkspaceStore } from '../../stores/workspace'
import { goToSectionCommands } from './useShellCommands'

export type PaletteGroup = 'Go to' | 'Preset' | 'Board' | 'Connection' | 'Command'

export interface PaletteEntry {
  /** Stable across openings, for "recently used". */
  id: string
  label: string
  group: PaletteGroup
  /** A second line of context (a preset's report, "active" on the current connection). */
  detail?: string
  /** The keys that do the same, as this platform writes them. */
  shortcut?: string
  run: () => unknown
}

const RECENT_LIMIT = 8
/** Entry ids, most recent first; for this session (the palette is a launcher, not a history to keep). */
const recent = ref<string[]>([])

export function rememberEntry(id: string): void {
  recent.value = [id, ...recent.value.filter((existing) => existing !== id)].slice(0, RECENT_LIMIT)
}

/** How much an entry's recent use lifts it over other matches: the latest most. */
export function recencyBonus(id: string): number {
  const index = recent.value.indexOf(id)
  return index === -1 ? 0 : 4 + (RECENT_LIMIT - index)
}

/** What the palette offers now: sections, presets, boards, connections and the commands something on screen handles. */
export function usePaletteEntries(): ComputedRef<PaletteEntry[]> {
  const app = useAppStore()
  const navigation = useNavigationStore()
  const presets = usePresetsStore()
  const boards = useBoardsStore()
  const exports = useExportsStore()
  const profiles = useProfilesStore()
  const workspace = useWorkspaceStore()
  const isMac = computed(() => app.platform === 'darwin')
  const keysOf = (command: MenuCommand): string | undefined =>
    command.accelerator !== null ? describeAccelerator(command.accelerator, isMac.value) : command.pageKey

  return computed(() => {
    const goTo = sections.map((section, index): PaletteEntry => {
      const command = goToSectionCommands[index]
      const shortcut = command ? keysOf(menuCommand(command)) : undefined
      return { id: `section:${section.id}`, label: section.label, group: 'Go to', shortcut, run: () => navigation.open(section.id) }
    })
    // The rail's last entry: not a section, it opens the Exports list over the section shown.
    goTo.push({ id: 'exports', label: 'Exports', group: 'Go to', run: () => void (exports.panelOpen = true) })
    // A preset opens in Reports as a click in its presets list does (the user chose it: no link's question).
    const presetEntries = workspace.active
      ? presets.presets.map((preset): PaletteEntry => ({
          id: `preset:${preset.name}`,
          label: preset.name,
          group: 'Preset',
          detail: `${preset.project} / ${preset.report}`,
          run: () => presets.openInReports(preset.name),
        }))
      : []
    // A board opens in Boards, as an adopsdesk://board/ link does; it runs on the active connection.
    const boardEntries = workspace.active
      ? boards.boards.map((board): PaletteEntry => ({
          id: `board:${board.name}`,
          label: board.name,
          group: 'Board',
          detail: `${board.tiles} tile${board.tiles === 1 ? '' : 's'}`,
          run: () => boards.show(board.name),
        }))
      : []
    const connections = [
      { id: DEMO_PROFILE_ID, name: 'Demo workspace' },
      ...profiles.sorted.filter((profile) => !profile.isDemo).map((profile) => ({ id: profile.id, name: profile.name })),
    ].map((profile): PaletteEntry => ({
      id: `connection:${profile.id}`,
      label: profile.name,
      group: 'Connection',
      detail: profile.id === workspace.activeProfileId ? 'active' : undefined,
      run: () => workspace.activate(profile.id),
    }))
    const commands = menuCommands
      .filter((command) => command.id !== 'commandPalette' && !goToSectionCommands.includes(command.id) && canRunCommand(command.id))
      .map((command): PaletteEntry => ({
        id: `command:${command.id}`,
        label: command.label,
        group: 'Command',
        shortcut: keysOf(command),
        run: () => runCommand(command.id),
      }))
    const all = [...goTo, ...commands, ...presetEntries, ...boardEntries, ...connections]
    // Recently used first (stable otherwise), so an empty query offers them at the top.
    return all
      .map((entry, order) => ({ entry, order, bonus: recencyBonus(entry.id) }))
      .sort((left, right) => right.bonus - left.bonus || left.order - right.order)
      .map(({ entry }) => entry)
  })
}
