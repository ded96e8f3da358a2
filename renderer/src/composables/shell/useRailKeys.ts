import { ref, watch } from 'vue'
import { tabKeyTarget } from '../useTabKeys'

/** The attribute each rail item carries: its key (a section's id, or the Exports entry's). */
export const RAIL_ITEM = 'data-rail-item'

/**
 * The rail's menu as the WAI-ARIA menu pattern moves through it: one tab stop (the section shown,
 * or the item the arrows last reached), Up and Down to the next item, wrapping around, Home and
 * End to the ends, Enter or Space to open it. Naive's menu puts its items out of the tab order and
 * has no keys of its own; with one tab stop each the rail cost ten presses of Tab to cross.
 */
export function useRailKeys(options: { shown: () => string; choose: (key: string) => void }) {
  /** The item holding the tab stop; null: the section shown. */
  const stop = ref<string | null>(null)
  watch(options.shown, () => void (stop.value = null))

  const tabindexOf = (key: string): 0 | -1 => (key === (stop.value ?? options.shown()) ? 0 : -1)

  const itemOf = (target: EventTarget | null): HTMLElement | null => (target instanceof HTMLElement ? target.closest<HTMLElement>(`[${RAIL_ITEM}]`) : null)

  function onKeydown(event: KeyboardEvent): void {
    const item = itemOf(event.target)
    const menu = event.currentTarget
    if (item === null || !(menu instanceof HTMLElement)) return
    const key = item.getAttribute(RAIL_ITEM) ?? ''
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault()
      options.choose(key)
      return
    }
    const items = [...menu.querySelectorAll<HTMLElement>(`[${RAIL_ITEM}]`)]
    const target = tabKeyTarget(event.key, items.indexOf(item), items.length, 'vertical')
    const next = target === null ? undefined : items[target]
    if (next === undefined) return
    event.preventDefault()
    stop.value = next.getAttribute(RAIL_ITEM)
    next.focus()
  }

  /** A click or a programmatic focus moves the tab stop too, so Tab leaves from where the user is. */
  function onFocusin(event: FocusEvent): void {
    const item = itemOf(event.target)
    if (item !== null) stop.value = item.getAttribute(RAIL_ITEM)
  }

  return { tabindexOf, onKeydown, onFocusin }
}
