import { describe, expect, it } from 'vitest'
import { computed, shallowRef } from 'vue'
import { useRowSelection } from '../../../../../renderer/src/lib/table'

interface Row {
  code: string
}
const row = (code: string): Row => ({ code })

function setup(codes: string[]) {
  const rows = shallowRef<readonly Row[]>(codes.map(row))
  const scrolled: number[] = []
  const selection = useRowSelection(
    rows,
    (item) => item.code,
    (position) => scrolled.push(position),
  )
  return { rows, scrolled, selection }
}

describe('useRowSelection', () => {
  it('moves the selection within the rows shown, starting at the first, and scrolls to it', () => {
    const { rows, scrolled, selection } = setup(['a', 'b', 'c'])
    selection.move(1)
    expect(selection.selected.value).toBe('a')
    selection.move(1)
    selection.move(5)
    expect(selection.selected.value).toBe('c')
    selection.move(-1)
    expect(selection.selected.value).toBe('b')
    expect(scrolled).toEqual([0, 1, 2, 1])
    // Sorted differently: the selection follows the row, not the position.
    rows.value = [row('c'), row('b'), row('a')]
    selection.move(1)
    expect(selection.selected.value).toBe('a')
    rows.value = []
    selection.move(1)
    expect(selection.selected.value).toBe('a')
  })

  it('reveals a hidden row by unhiding it first', async () => {
    const { rows, scrolled, selection } = setup(['a', 'b'])
    await selection.reveal('z', () => (rows.value = [row('a'), row('b'), row('z')]))
    expect(selection.selected.value).toBe('z')
    expect(scrolled).toEqual([2])
    let unhidden = false
    await selection.reveal('a', () => (unhidden = true))
    expect(unhidden).toBe(false)
    expect(scrolled).toEqual([2, 0])
  })

  it('checks rows one by one, all shown, only some; forgets a row that is gone', () => {
    const { selection } = setup(['a', 'b', 'c'])
    selection.check('b', true)
    const before = selection.checked.value
    selection.check('c', true)
    expect(before).toEqual(new Set(['b']))
    expect(selection.checked.value).toEqual(new Set(['b', 'c']))
    selection.checkAll(true)
    expect(selection.checked.value).toEqual(new Set(['a', 'b', 'c']))
    selection.checkOnly(['c'])
    expect(selection.checked.value).toEqual(new Set(['c']))
    selection.select(row('c'))
    selection.forget('c')
    expect(selection.selected.value).toBeNull()
    expect(selection.checked.value.size).toBe(0)
    selection.check('a', true)
    selection.checkAll(false)
    expect(selection.checked.value.size).toBe(0)
    selection.check('a', true)
    selection.select(row('a'))
    selection.reset()
    expect(selection.selected.value).toBeNull()
    expect(selection.checked.value.size).toBe(0)
  })
})

describe('useRowSelection.checkedAmong', () => {
  it('gives the checked rows in the list order, and with none checked does not read the list, so a computed over it does not follow the list', () => {
    const { rows, selection } = setup(['a', 'b', 'c'])
    let reads = 0
    let evaluations = 0
    const checked = computed(() => {
      evaluations++
      return selection.checkedAmong(() => {
        reads++
        return rows.value
      })
    })
    expect(checked.value).toEqual([])
    // A long list arriving slice by slice: nothing checked, nothing recomputed, no row walked.
    rows.value = ['a', 'b', 'c', 'd'].map(row)
    rows.value = ['a', 'b', 'c', 'd', 'e'].map(row)
    expect(checked.value).toEqual([])
    expect(reads).toBe(0)
    expect(evaluations).toBe(1)
    selection.check('d', true)
    selection.check('b', true)
    expect(checked.value.map((item) => item.code)).toEqual(['b', 'd'])
    // Checked rows follow the list once something is checked.
    rows.value = ['d', 'c', 'b'].map(row)
    expect(checked.value.map((item) => item.code)).toEqual(['d', 'b'])
  })
})
