import { nextTick, shallowRef, type Ref } from 'vue'

/**
 * Keyboard navigation of a grid's cells (the WAI-ARIA grid pattern): one cell is in the tab
 * order (a roving tabindex), the arrows move it, Home/End go to the row's first or last cell
 * (with Ctrl, the grid's), PageUp/PageDown move a screenful. The cell is scrolled into view
 * first and focused once it is drawn.
 */
export function usePivotKeys(
  root: Readonly<Ref<HTMLElement | null>>,
  size: () => { rows: number; columns: number; pageRows: number },
  reveal: (row: number, column: number) => void,
) {
  const active = shallowRef({ row: 0, column: 0 })

  const cellSelector = (row: number, column: number): string => `[data-cell="${row}:${column}"]`

  async function moveTo(row: number, column: number): Promise<void> {
    const { rows, columns } = size()
    if (rows === 0 || columns === 0) return
    const next = { row: Math.max(0, Math.min(rows - 1, row)), column: Math.max(0, Math.min(columns - 1, column)) }
    active.value = next
    reveal(next.row, next.column)
    await nextTick()
    root.value?.querySelector<HTMLElement>(cellSelector(next.row, next.column))?.focus({ preventScroll: true })
  }

  /** The target of a key, or null when the key is not the grid's. */
  function target(event: KeyboardEvent): { row: number; column: number } | null {
    const { row, column } = active.value
    const { rows, columns, pageRows } = size()
    switch (event.key) {
      case 'ArrowUp':
        return { row: row - 1, column }
      case 'ArrowDown':
        return { row: row + 1, column }
      case 'ArrowLeft':
        return { row, column: column - 1 }
      case 'ArrowRight':
        return { row, column: column + 1 }
      case 'Home':
        return event.ctrlKey || event.metaKey ? { row: 0, column: 0 } : { row, column: 0 }
      case 'End':
        return event.ctrlKey || event.metaKey ? { row: rows - 1, column: columns - 1 } : { row, column: columns - 1 }
      case 'PageUp':
        return { row: row - pageRows, column }
      case 'PageDown':
        return { row: row + pageRows, column }
      default:
        return null
    }
  }

  function onKeydown(event: KeyboardEvent): void {
    const next = target(event)
    if (next === null) return
    event.preventDefault()
    void moveTo(next.row, next.column)
  }

  /** A click on a cell makes it the active one. */
  function onFocusCell(row: number, column: number): void {
    active.value = { row, column }
  }

  /** After the pivot changed shape, the active cell stays inside it. */
  function clampActive(): void {
    const { rows, columns } = size()
    const { row, column } = active.value
    active.value = { row: Math.max(0, Math.min(rows - 1, row)), column: Math.max(0, Math.min(columns - 1, column)) }
  }

  return { active, onKeydown, onFocusCell, clampActive, moveTo }
}
