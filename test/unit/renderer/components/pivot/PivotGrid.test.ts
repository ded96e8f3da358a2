// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { mount, flushPromises } from '@vue/test-utils'
import PivotGrid from '../../../../../renderer/src/components/pivot/PivotGrid.vue'
import { computePivot } from '../../../../../common/pivot/model'

/** 300 rows × 60 columns (+ totals): more than a screen both ways, so the grid must window both. */
const pivot = computePivot(
  {
    fields: ['row', 'column'],
    values: ['imps'],
    comparison: false,
    records: Array.from({ length: 300 * 60 }, (_unused, index) => ({
      keys: [`r${String(index % 300).padStart(3, '0')}`, `c${String(Math.floor(index / 300)).padStart(2, '0')}`],
      values: [index],
      compare: null,
    })),
  },
  {
    rows: ['row'],
    columns: ['column'],
    values: [{ field: 'imps', aggregate: 'sum' }],
    sort: { by: 'label', direction: 'asc' },
    top: null,
    subtotals: false,
    showChange: false,
  },
)

async function grid() {
  const requests: unknown[] = []
  const wrapper = mount(PivotGrid, {
    attachTo: document.body,
    props: {
      source: (request: Parameters<typeof pivot.window>[0]) => {
        requests.push(request)
        return pivot.window(request)
      },
      rowCount: pivot.rowCount,
      columnCount: pivot.columnCount,
      rowFields: ['row'],
      label: 'Pivot',
    },
  })
  await flushPromises()
  return { wrapper, requests }
}
const activeCell = (): string | null => document.activeElement?.getAttribute('data-cell') ?? null
async function press(wrapper: Awaited<ReturnType<typeof grid>>['wrapper'], key: string, extra: KeyboardEventInit = {}): Promise<void> {
  await wrapper.get('[role="grid"]').trigger('keydown', { key, ...extra })
  await flushPromises()
}

describe('the pivot grid', () => {
  it('is a grid with its full size announced, drawing only a window of rows and columns', async () => {
    const { wrapper } = await grid()
    const root = wrapper.get('[role="grid"]')
    expect(root.attributes('aria-rowcount')).toBe('302')
    expect(root.attributes('aria-colcount')).toBe('62')
    const rows = wrapper.findAll('[data-test="pivot-row"]')
    expect(rows.length).toBeGreaterThan(0)
    expect(rows.length).toBeLessThan(60)
    expect(rows[0]?.findAll('[role="gridcell"]').length).toBeLessThan(20)
    expect(rows[0]?.get('[role="gridcell"]').attributes('aria-colindex')).toBe('2')
    expect(rows[0]?.get('[role="rowheader"]').text()).toBe('r000')
    expect(root.attributes('aria-busy')).toBe('false')
    // One cell in the tab order: the roving tabindex.
    expect(wrapper.findAll('[tabindex="0"]').length).toBe(1)
    wrapper.unmount()
  })

  it('moves the focused cell with the arrows, Home/End and PageUp/PageDown, scrolling to cells outside the window', async () => {
    const { wrapper, requests } = await grid()
    ;(wrapper.get('[data-cell="0:0"]').element as HTMLElement).focus()
    await press(wrapper, 'ArrowRight')
    expect(activeCell()).toBe('0:1')
    await press(wrapper, 'ArrowDown')
    expect(activeCell()).toBe('1:1')
    await press(wrapper, 'ArrowLeft')
    await press(wrapper, 'ArrowLeft')
    expect(activeCell()).toBe('1:0')
    await press(wrapper, 'ArrowUp')
    await press(wrapper, 'ArrowUp')
    expect(activeCell()).toBe('0:0')
    await press(wrapper, 'End')
    expect(activeCell()).toBe('0:60')
    await press(wrapper, 'Home')
    expect(activeCell()).toBe('0:0')
    await press(wrapper, 'PageDown')
    const paged = Number(activeCell()?.split(':')[0])
    expect(paged).toBeGreaterThan(5)
    await press(wrapper, 'PageUp')
    expect(activeCell()).toBe('0:0')
    const before = requests.length
    await press(wrapper, 'End', { ctrlKey: true })
    expect(activeCell()).toBe('300:60')
    // The last row's cells came in a new window, and only the tabbed cell is in the tab order.
    expect(requests.length).toBeGreaterThan(before)
    expect(wrapper.get('[data-cell="300:60"]').text()).toBe(pivot.cell(300, 60)?.toLocaleString('en-US'))
    expect(wrapper.findAll('[tabindex="0"]').length).toBe(1)
    wrapper.unmount()
  })

  it('gives a value header without a path both lines, and the whole text in its title', async () => {
    const totals = computePivot(
      { fields: ['row'], values: ['requests'], comparison: false, records: [{ keys: ['a'], values: [1], compare: null }] },
      {
        rows: ['row'],
        columns: [],
        values: [{ field: 'requests', aggregate: 'sum' }],
        sort: { by: 'label', direction: 'asc' },
        top: null,
        subtotals: false,
        showChange: false,
      },
    )
    const wrapper = mount(PivotGrid, {
      attachTo: document.body,
      props: {
        source: totals.window,
        rowCount: totals.rowCount,
        columnCount: totals.columnCount,
        rowFields: ['row'],
        label: 'Pivot',
        columnLabel: () => 'sum of requests served',
      },
    })
    await flushPromises()
    const header = wrapper.get('[data-test="pivot-sort"]')
    expect(header.attributes('title')).toBe('Total: sum of requests served')
    expect(header.find('.value').classes()).not.toContain('wrap')
    wrapper.unmount()
    const pathless = mount(PivotGrid, {
      attachTo: document.body,
      props: {
        source: (request: Parameters<typeof totals.window>[0]) => {
          const window = totals.window(request)
          return { ...window, columns: window.columns.map((column) => ({ ...column, header: { ...column.header, path: [] } })) }
        },
        rowCount: totals.rowCount,
        columnCount: totals.columnCount,
        rowFields: ['row'],
        label: 'Pivot',
        columnLabel: () => 'sum of requests served',
      },
    })
    await flushPromises()
    const bare = pathless.get('[data-test="pivot-sort"]')
    expect(bare.attributes('title')).toBe('sum of requests served')
    expect(bare.find('.path').exists()).toBe(false)
    expect(bare.get('.value').classes()).toContain('wrap')
    pathless.unmount()
  })

  it('keeps its row and cell elements through a scroll step and redraws them with the new rows (no unmount, no mount)', async () => {
    const { wrapper } = await grid()
    const viewport = wrapper.get('[role="grid"]').element as HTMLElement
    const firstRow = wrapper.get('[data-test="pivot-row"]').element
    const firstCell = firstRow.querySelector('[role="gridcell"]')
    viewport.scrollTop = 28 * 30
    await wrapper.get('[role="grid"]').trigger('scroll')
    await flushPromises()
    const after = wrapper.get('[data-test="pivot-row"]').element
    expect(after).toBe(firstRow)
    expect(after.getAttribute('aria-rowindex')).toBe('32')
    expect(after.querySelector('[role="gridcell"]')).toBe(firstCell)
    expect(firstCell?.getAttribute('data-cell')).toBe('30:0')
    expect(firstCell?.textContent?.trim()).toBe(pivot.cell(30, 0)?.toLocaleString('en-US'))
    wrapper.unmount()
  })

  it('is busy while the cells on screen are being fetched', async () => {
    const wrapper = mount(PivotGrid, {
      attachTo: document.body,
      props: {
        source: () => new Promise<never>(() => undefined),
        rowCount: pivot.rowCount,
        columnCount: pivot.columnCount,
        rowFields: ['row'],
        label: 'Pivot',
      },
    })
    await flushPromises()
    expect(wrapper.get('[role="grid"]').attributes('aria-busy')).toBe('true')
    wrapper.unmount()
  })

  it('asks to sort by a column when its header is clicked', async () => {
    const { wrapper } = await grid()
    await wrapper.findAll('[data-test="pivot-sort"]')[2]?.trigger('click')
    const sorted = wrapper.emitted('sort')?.[0]?.[0] as { header: { path: string[] } }
    expect(sorted.header.path).toEqual(['c02'])
    wrapper.unmount()
  })
})
