import { nextTick, ref, shallowRef, type Ref } from 'vue'

/**
 * Which row of a table is selected (the one the arrows and Enter act on) and which rows are
 * checked (for actions on many). Rows are named by a key, so both survive sorting, filtering
 * and a refreshed list; `rows` is the list as shown, in display order. `scrollTo` brings the
 * row at a position into view (a virtual list's job).
 */
export function useRowSelection<Row>(rows: Ref<readonly Row[]>, keyOf: (row: Row) => string, scrollTo: (position: number) => void = () => undefined) {
  const selected = ref<string | null>(null)
  // Replaced whole on every change: a Set inside a deep ref would make each row key reactive.
  const checked = shallowRef<ReadonlySet<string>>(new Set())

  function select(row: Row): void {
    selected.value = keyOf(row)
  }

  /** Where the row with this key is shown, or -1. */
  function positionOf(key: string): number {
    return rows.value.findIndex((row) => keyOf(row) === key)
  }

  /** Moves the selection by `delta` rows (to the first row when none is selected) and scrolls to it. */
  function move(delta: number): void {
    const list = rows.value
    if (list.length === 0) return
    const at = selected.value === null ? -1 : positionOf(selected.value)
    const next = Math.max(0, Math.min(list.length - 1, at < 0 ? 0 : at + delta))
    selected.value = keyOf(list[next] as Row)
    scrollTo(next)
  }

  /** Selects a row and scrolls to it; when it is not shown, `unhide` (say, clearing the search) runs first. */
  async function reveal(key: string, unhide: () => void = () => undefined): Promise<void> {
    selected.value = key
    if (positionOf(key) < 0) unhide()
    await nextTick()
    const at = positionOf(key)
    if (at >= 0) scrollTo(at)
  }

  function check(key: string, on: boolean): void {
    const next = new Set(checked.value)
    if (on) next.add(key)
    else next.delete(key)
    checked.value = next
  }

  /** Checks every row shown, or none. */
  function checkAll(on: boolean): void {
    checked.value = on ? new Set(rows.value.map(keyOf)) : new Set()
  }

  /**
   * The checked rows among `rows()`, in its order. With none checked (nearly always) `rows` is not
   * read at all, so a computed over this does not follow the list: a long list arriving in slices,
   * or a keystroke, would otherwise walk 100,000 rows and make a key string for each.
   */
  function checkedAmong(among: () => readonly Row[]): Row[] {
    const keys = checked.value
    if (keys.size === 0) return []
    return among().filter((row) => keys.has(keyOf(row)))
  }

  /** Leaves exactly these rows checked (say, the ones an action on many could not handle). */
  function checkOnly(keys: Iterable<string>): void {
    checked.value = new Set(keys)
  }

  /** A row that is gone: neither selected nor checked any more. */
  function forget(key: string): void {
    if (selected.value === key) selected.value = null
    if (checked.value.has(key)) check(key, false)
  }

  function reset(): void {
    selected.value = null
    checked.value = new Set()
  }

  return { selected, checked, select, positionOf, move, reveal, check, checkAll, checkedAmong, checkOnly, forget, reset }
}

/** What useRowSelection gives: the selected and checked rows, and moving between them. */
export type RowSelection<Row> = ReturnType<typeof useRowSelection<Row>>
