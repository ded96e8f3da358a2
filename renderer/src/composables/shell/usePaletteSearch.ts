import { computed, nextTick, ref, watch, type Ref } from 'vue'
import { fuzzyFilter } from '../../lib/fuzzy'
import { recencyBonus, type PaletteEntry } from './usePaletteEntries'
import type { PaletteScope } from './useShellCommands'

const LIMIT = 100

export interface PaletteSearchOptions {
  entries: Readonly<Ref<PaletteEntry[]>>
  /** What the palette was opened for; each opening starts from it. */
  opened: () => readonly [show: boolean, scope: PaletteScope]
  /** Each time the palette opens (the presets list is read again there). */
  onOpen: () => void
  choose: (entry: PaletteEntry | undefined) => void
}

/**
 * The palette's text box and list: what matches the query (best and most recently used first),
 * which option is active, and the keys that move it. A combobox: focus stays in the text box and
 * the arrows move the active option (aria-activedescendant).
 */
export function usePaletteSearch({ entries, opened, onOpen, choose }: PaletteSearchOptions) {
  const query = ref('')
  /** Starts as asked (`scope`); Backspace in an empty box widens it to everything. */
  const listing = ref<PaletteScope>('all')
  const active = ref(0)

  const results = computed(() => {
    const offered = listing.value === 'connections' ? entries.value.filter((entry) => entry.group === 'Connection') : entries.value
    return fuzzyFilter(
      query.value,
      offered,
      (entry) => entry.label,
      (entry) => recencyBonus(entry.id),
    ).slice(0, LIMIT)
  })
  const optionId = (index: number): string => `palette-option-${index}`
  const activeId = computed(() => (results.value.length > 0 ? optionId(active.value) : undefined))
  const placeholder = computed(() =>
    listing.value === 'connections' ? 'Switch to connection…' : 'Go to a section, open a preset, switch connection, run a command…',
  )

  watch(opened, ([show, nextScope]) => {
    if (!show) return
    query.value = ''
    listing.value = nextScope
    active.value = 0
    onOpen()
  })
  watch(query, () => (active.value = 0))
  watch(active, (index) => void nextTick(() => document.getElementById(optionId(index))?.scrollIntoView({ block: 'nearest' })))

  function move(step: number): void {
    const count = results.value.length
    if (count > 0) active.value = (active.value + step + count) % count
  }

  function onKey(event: KeyboardEvent): void {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      move(event.key === 'ArrowDown' ? 1 : -1)
    } else if (event.key === 'Home' || event.key === 'End') {
      if (query.value !== '') return
      event.preventDefault()
      active.value = event.key === 'Home' ? 0 : Math.max(0, results.value.length - 1)
    } else if (event.key === 'Enter' && !event.isComposing) {
      event.preventDefault()
      choose(results.value[active.value]?.item)
    } else if (event.key === 'Backspace' && query.value === '' && listing.value !== 'all') {
      listing.value = 'all'
    }
  }

  return { query, active, results, optionId, activeId, placeholder, onKey }
}
