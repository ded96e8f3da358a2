// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { defineComponent, h, nextTick, ref } from 'vue'
import { mount } from '@vue/test-utils'
import type { Entity } from '@contract'
import EntityRow from '../../../../../renderer/src/components/entities/EntityRow.vue'
import EntityTable from '../../../../../renderer/src/components/entities/EntityTable.vue'
import { buildColumns } from '../../../../../renderer/src/domain/entities/columns'
import { rowWindow, useRowWindow, type CreateHeightObserver } from '../../../../../renderer/src/lib/table'
import { adUnitsSpec, publishersSpec } from '../../fixtures/entitySpecs'

const ROWS = 100_000
const columns = buildColumns(publishersSpec, () => new Map())
const publisher = (id: number): Entity => ({ id, name: `Publisher ${id}`, url: `https://p${id}.example`, external_id: null })

/** A long list whose row reads are counted: what a change of the list costs the table. */
function countedRows(count: number, offset = 0): { rows: readonly Entity[]; reads: () => number } {
  const data = Array.from({ length: count }, (_, position) => publisher(position + 1 + offset))
  let reads = 0
  const rows = new Proxy(data, {
    get(target, property, receiver) {
      if (typeof property === 'string' && /^\d+$/.test(property)) reads++
      return Reflect.get(target, property, receiver) as unknown
    },
  })
  return { rows, reads: () => reads }
}

const props = (rows: readonly Entity[]) => ({
  columns,
  rows,
  sort: null,
  filters: {},
  selectedId: null,
  checked: new Set<string>(),
  selectable: true,
  names: () => new Map<string, string>(),
  emptyText: 'No rows',
})

describe('EntityTable', () => {
  it('renders a screenful of 100,000 rows and reads only those when the list is replaced (a search keystroke)', async () => {
    const first = countedRows(ROWS)
    const wrapper = mount(EntityTable, { props: props(first.rows) })
    // Naive UI's virtual list read every row on each change (its key map and offset tree).
    expect(first.reads()).toBeLessThan(200)
    const next = countedRows(ROWS, 7)
    await wrapper.setProps({ rows: next.rows })
    expect(next.reads()).toBeLessThan(200)
    const shown = wrapper.findAll('[data-test="entity-row"]')
    expect(shown.length).toBeGreaterThan(0)
    expect(shown.length).toBeLessThan(200)
    expect(shown[0]?.attributes('data-id')).toBe('8')
    // Screen readers hear where a row sits among all of them, after the header's two rows.
    expect(wrapper.get('[role="grid"]').attributes('aria-rowcount')).toBe(String(ROWS + 2))
    expect(shown[0]?.attributes('aria-rowindex')).toBe('3')
  })

  it('patches the rows on screen in place when a search brings other rows, rather than mounting new ones', async () => {
    const wrapper = mount(EntityTable, { props: props(countedRows(1_000).rows) })
    const before = wrapper.findAll('[data-test="entity-row"]').map((row) => row.element)
    expect(before.length).toBeGreaterThan(0)
    await wrapper.setProps({ rows: countedRows(1_000, 500).rows })
    const after = wrapper.findAll('[data-test="entity-row"]')
    // The same elements, showing the new rows: no element (nor check box) made again.
    expect(after.map((row) => row.element)).toEqual(before)
    expect(after[0]?.attributes('data-id')).toBe('501')
    expect(after[0]?.text()).toContain('Publisher 501')
    expect(after[0]?.get('input[type="checkbox"], [role="checkbox"]').attributes('aria-label')).toBe('Select row 501')
  })

  it('mounts no component inside a row: a search that brings back a screenful after a few rows mounts plain elements', async () => {
    const wrapper = mount(EntityTable, { props: props(countedRows(1_000).rows) })
    await wrapper.setProps({ rows: countedRows(1).rows })
    await wrapper.setProps({ rows: countedRows(1_000, 9).rows })
    const rows = wrapper.findAllComponents(EntityRow)
    expect(rows.length).toBeGreaterThan(1)
    // NCheckbox in each row merged a theme in its setup: a screenful of them mounted inside the keystroke.
    for (const row of rows) expect(row.findAllComponents({ name: 'Checkbox' })).toHaveLength(0)
    const box = wrapper.get('[data-test="entity-row"] input[type="checkbox"]')
    expect(box.attributes('aria-label')).toBe('Select row 10')
    ;(box.element as HTMLInputElement).checked = true
    await box.trigger('change')
    expect(wrapper.emitted('check')).toEqual([[10, true]])
  })

  it('writes no theme variables and no column template on each row (a re-render would set them all again)', () => {
    const wrapper = mount(EntityTable, { props: props(countedRows(1_000).rows) })
    const row = wrapper.get('[data-test="entity-row"]')
    expect(row.attributes('style') ?? '').toBe('')
    // Nor on any of the table's controls (check boxes, filters).
    for (const element of wrapper.findAll('[style]')) expect(element.attributes('style')).not.toContain('--n-')
    // The columns come from the table, once.
    expect(wrapper.get('[data-test="entity-table"]').attributes('style')).toContain('--entity-grid: 44px')
  })

  it('shows the empty text for no rows', () => {
    const wrapper = mount(EntityTable, { props: props([]) })
    expect(wrapper.get('[data-test="table-empty"]').text()).toBe('No rows')
    expect(wrapper.findAll('[data-test="entity-row"]')).toHaveLength(0)
  })
})

describe('opening a row', () => {
  it('opens on a single click; its check box checks it without opening; Enter on the grid opens the selected row', async () => {
    const rows = countedRows(20).rows
    const wrapper = mount(EntityTable, { props: { ...props(rows), selectedId: '3' }, attachTo: document.body })
    const row = wrapper.get('[data-test="entity-row"][data-id="2"]')
    await row.findAll('[role="gridcell"]')[2]?.trigger('click')
    expect(wrapper.emitted('open')).toEqual([[rows[1]]])

    // The check box, and the cell around it, only check.
    const box = row.get('input[type="checkbox"]')
    await box.trigger('click')
    await row.get('.check').trigger('click')
    expect(wrapper.emitted('open')).toHaveLength(1)
    expect(wrapper.emitted('check')).toEqual([[2, true]])
    // Keys pressed on the check box stay with it (Space toggles it, as a check box does).
    await box.trigger('keydown', { key: 'Enter' })
    await box.trigger('keydown', { key: ' ' })
    expect(wrapper.emitted('open')).toHaveLength(1)

    await wrapper.get('[data-test="entity-table"]').trigger('keydown', { key: 'Enter' })
    expect(wrapper.emitted('open')).toEqual([[rows[1]], [rows[2]]])
    // A double click is two clicks, not a third way in that opens twice more.
    await row.trigger('dblclick')
    expect(wrapper.emitted('open')).toHaveLength(2)
    wrapper.unmount()
  })

  it('a reference link in a row opens what it points at, not the row', async () => {
    const columns = buildColumns(adUnitsSpec, () => new Map([['1', 'Humongous Kids']]))
    const unit: Entity = { id: 10, name: 'kids_footer', publisher: 1, size: '300x250' }
    const wrapper = mount(EntityTable, { props: { ...props([unit]), columns } })
    await wrapper.get('[data-test="ref-publisher"]').trigger('click')
    expect(wrapper.emitted('openRef')).toEqual([['publishers', '1']])
    expect(wrapper.emitted('open')).toBeUndefined()
  })
})

describe('rowWindow', () => {
  it('covers the viewport plus the overscan on each side', () => {
    expect(rowWindow(1000, 36, 0, 360, 2)).toEqual({ first: 0, end: 12, offset: 0, height: 36_000 })
    expect(rowWindow(1000, 36, 3600, 360, 2)).toEqual({ first: 98, end: 112, offset: 98 * 36, height: 36_000 })
    // A row cut at the top of the viewport is still rendered.
    expect(rowWindow(1000, 36, 3610, 360, 0)).toMatchObject({ first: 100, end: 111 })
  })

  it('never goes past the end: a list just made shorter by a search shows its last rows, not an empty window', () => {
    expect(rowWindow(20, 36, 36_000, 360, 2)).toEqual({ first: 8, end: 20, offset: 8 * 36, height: 720 })
    expect(rowWindow(3, 36, 5000, 360, 2)).toEqual({ first: 0, end: 3, offset: 0, height: 108 })
    expect(rowWindow(0, 36, 100, 360, 2)).toEqual({ first: 0, end: 0, offset: 0, height: 0 })
  })
})

describe('useRowWindow', () => {
  it('follows the viewport height it is told about, and reveal scrolls just enough to show a row', async () => {
    let report: Parameters<CreateHeightObserver>[0] = () => undefined
    const createObserver: CreateHeightObserver = (callback) => {
      report = callback
      return { observe: () => undefined, disconnect: () => undefined }
    }
    let window: ReturnType<typeof useRowWindow> | null = null
    const Probe = defineComponent({
      setup() {
        const viewport = ref<HTMLElement | null>(null)
        window = useRowWindow(viewport, () => 1000, 36, { overscan: 0, createObserver })
        return () => h('div', { ref: viewport, style: 'overflow-y: auto' })
      },
    })
    mount(Probe)
    const rows = window as unknown as ReturnType<typeof useRowWindow>
    report([{ contentRect: { height: 360 } as DOMRectReadOnly }])
    expect(rows.range.value).toMatchObject({ first: 0, end: 10 })
    rows.reveal(50)
    // Row 50 ends at 51 × 36 px: scrolled so that it is the last row in view.
    expect(rows.range.value).toMatchObject({ first: 41, end: 51 })
    rows.reveal(45)
    expect(rows.range.value).toMatchObject({ first: 41, end: 51 })
    rows.reveal(2)
    expect(rows.range.value).toMatchObject({ first: 2, end: 12 })
  })
  it('a reveal the browser cut short (its scrollable height a frame behind) is applied again in the next frames until it lands', () => {
    const list = clampedList()
    // Row 151 (position 150) is created and revealed before the browser has laid out the longer list.
    list.count.value = 151
    list.rows.reveal(150)
    expect(list.scrollTop()).toBe(150 * 36 - 360)
    // The frame after still has the old height; the one after that has the new one.
    list.runFrames()
    expect(list.scrollTop()).toBe(150 * 36 - 360)
    list.layOut(151)
    list.runFrames()
    // Its bottom edge is the viewport's: in view.
    expect(list.scrollTop()).toBe(151 * 36 - 360)
    expect(list.rows.range.value).toMatchObject({ end: 151 })
  })
  it('a reveal cut short is dropped when the user scrolls elsewhere before the next frame', () => {
    const list = clampedList()
    list.count.value = 151
    list.rows.reveal(150)
    list.userScrolls(360)
    list.layOut(151)
    list.runFrames()
    expect(list.scrollTop()).toBe(360)
  })
  it('measures a viewport that appears after mounting (inside a modal, behind a v-if: the plan view)', async () => {
    let report: Parameters<CreateHeightObserver>[0] = () => undefined
    let observed = 0
    const createObserver: CreateHeightObserver = (callback) => {
      report = callback
      return { observe: () => void observed++, disconnect: () => undefined }
    }
    const shown = ref(false)
    let window: ReturnType<typeof useRowWindow> | null = null
    const Probe = defineComponent({
      setup() {
        const viewport = ref<HTMLElement | null>(null)
        window = useRowWindow(viewport, () => 1000, 36, { overscan: 0, createObserver })
        return () => (shown.value ? h('div', { ref: viewport, style: 'overflow-y: auto' }) : null)
      },
    })
    mount(Probe)
    shown.value = true
    await nextTick()
    // Read once when mounted, the element was not there yet: never observed, a window of 0 rows.
    expect(observed).toBe(1)
    report([{ contentRect: { height: 360 } as DOMRectReadOnly }])
    expect((window as unknown as ReturnType<typeof useRowWindow>).range.value).toMatchObject({ first: 0, end: 10 })
  })
})

/**
 * A row window over a viewport 360 px high whose scroll position the browser clamps to the height
 * of the list as last laid out (`layOut`), with frames run by hand: what Chromium does to a reveal
 * made before it has laid out a longer list.
 */
function clampedList() {
  let report: Parameters<CreateHeightObserver>[0] = () => undefined
  const createObserver: CreateHeightObserver = (callback) => {
    report = callback
    return { observe: () => undefined, disconnect: () => undefined }
  }
  const count = ref(150)
  const frames: (() => void)[] = []
  const nextFrame = (callback: () => void) => void frames.push(callback)
  let laidOut = 150
  let position = 0
  let window: ReturnType<typeof useRowWindow> | null = null
  const Probe = defineComponent({
    setup() {
      const viewport = ref<HTMLElement | null>(null)
      window = useRowWindow(viewport, () => count.value, 36, { overscan: 0, createObserver, nextFrame })
      return () => h('div', { ref: viewport })
    },
  })
  const wrapper = mount(Probe)
  Object.defineProperty(wrapper.element, 'scrollTop', {
    get: () => position,
    set: (value: number) => void (position = Math.max(0, Math.min(value, laidOut * 36 - 360))),
  })
  const rows = window as unknown as ReturnType<typeof useRowWindow>
  report([{ contentRect: { height: 360 } as DOMRectReadOnly }])
  return {
    count,
    rows,
    scrollTop: () => position,
    layOut: (rowsLaidOut: number) => void (laidOut = rowsLaidOut),
    runFrames: () => {
      for (const frame of frames.splice(0)) frame()
    },
    userScrolls: (top: number) => {
      position = top
      rows.onScroll()
    },
  }
}
