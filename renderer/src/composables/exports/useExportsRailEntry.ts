import { h, onMounted } from 'vue'
import { NBadge, NIcon, type MenuOption } from 'naive-ui'
import DownloadOutline from '@vicons/ionicons5/es/DownloadOutline'
import type { AfterFirstScreen } from '../shell/useAfterFirstScreen'
import { useExportsStore } from '../../stores/exports'

/** The rail's key for Exports: not a section, it opens the jobs drawer over the current one. */
export const EXPORTS_ENTRY = 'exports'
const ENTRY_TEST_ID = 'export-jobs-open'

/**
 * Exports as an entry of the rail's own menu, so it looks like the sections above it (icon,
 * height, indent, hover, both themes), with the running-jobs badge at the item's right end where
 * the menu puts an item's extra. The rail moves to it and opens it as it does the sections
 * (ShellRail, useRailKeys). `start` says when the jobs' list is read (the shell: once the first
 * screen is painted).
 */
export function useExportsRailEntry(start: AfterFirstScreen = (work) => onMounted(work)) {
  const store = useExportsStore()
  start(() => void store.listen())
  const open = (): void => {
    store.panelOpen = true
  }

  const option: MenuOption = {
    key: EXPORTS_ENTRY,
    label: 'Exports',
    icon: () => h(NIcon, { 'aria-hidden': 'true' }, { default: () => h(DownloadOutline) }),
    extra: () =>
      h(NBadge, { value: store.running, show: store.running > 0, max: 99, processing: true, 'aria-hidden': 'true', 'data-test': 'export-jobs-badge' }),
  }

  /** The item element's own attributes (the menu's node-props): a name that says what runs. */
  function nodeProps(): Record<string, string | number | undefined> {
    const running = store.running
    return {
      'data-test': ENTRY_TEST_ID,
      'aria-label': running > 0 ? `Exports, ${running} running` : 'Exports',
      'aria-haspopup': 'dialog',
    }
  }

  return { option, nodeProps, open }
}
