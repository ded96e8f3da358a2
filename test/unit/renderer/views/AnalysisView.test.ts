// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import type { OpenedFile, SqlRows } from '@contract'
import type { PivotWindow, PivotWindowRequest } from '../../../../common/pivot/types'
import AnalysisView from '../../../../renderer/src/views/AnalysisView.vue'
import { useAnalysisStore } from '../../../../renderer/src/stores/analysis'

const file: OpenedFile = {
  id: 'file-1',
  name: 'sales.xlsx',
  table: 'sales',
  columns: [
    { name: 'publisher', type: 'VARCHAR' },
    { name: 'impressions', type: 'BIGINT' },
  ],
  rowCount: 1,
  notes: [],
}

/** main's pivot of the file: two publishers and the total, one value column. */
const window = (request: PivotWindowRequest): PivotWindow => {
  const rows = [
    { path: ['Alpha'], kind: 'item' as const },
    { path: ['Beta\tCo'], kind: 'item' as const },
    { path: ['Total'], kind: 'total' as const },
  ].slice(request.rowStart, request.rowStart + request.rowCount)
  const cells = [[1200.5], [null], [1200.5]].slice(request.rowStart, request.rowStart + request.rowCount)
  return {
    rowCount: 3,
    columnCount: 1,
    rowStart: request.rowStart,
    columnStart: request.columnStart,
    rows,
    columns: [{ header: { path: ['Total'], kind: 'total' }, value: 0, measure: 'value' }],
    cells,
  }
}

const sqlAnswer: SqlRows = { columns: ['total'], rows: [[2003]], truncated: false, notes: [] }
const ok = <T>(value: T) => Promise.resolve({ ok: true as const, value })

function fakeApi() {
  const analysis = {
    openFile: vi.fn(() => ok(file)),
    pivot: vi.fn(() => ok({ pivotId: 'pivot_1', rowCount: 3, columnCount: 1 })),
    window: vi.fn(({ request }: { request: PivotWindowRequest }) => ok(window(request))),
    sql: vi.fn(() => ok(sqlAnswer)),
    savePivot: vi.fn(({ format }: { format: string }) => ok({ fileName: `sales pivot.${format}` })),
    saveSql: vi.fn(() => ok({ fileName: 'sales query.csv' })),
    close: vi.fn(() => ok(null)),
  }
  Object.defineProperty(globalThis.window, 'api', { value: { analysis }, configurable: true })
  const writeText = vi.fn(() => Promise.resolve())
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
  return { analysis, writeText }
}

async function opened() {
  const fakes = fakeApi()
  const wrapper = mount(AnalysisView)
  await useAnalysisStore().openFile()
  await flushPromises()
  return { ...fakes, wrapper }
}

const status = (wrapper: ReturnType<typeof mount>): string => wrapper.find('[data-test="analysis-status"]').text()

describe('the Analysis page copies and saves', () => {
  beforeEach(() => setActivePinia(createPinia()))
  afterEach(() => vi.restoreAllMocks())

  it('names the file\'s rows in the right number ("1 row")', async () => {
    const { wrapper } = await opened()
    expect(wrapper.find('[data-test="analysis-file"]').text()).toContain('(sales, 1 row)')
    wrapper.unmount()
  })

  it('copies the pivot as TSV: the header, each row, the total, raw numbers, empty cells empty', async () => {
    const { wrapper, writeText } = await opened()
    await wrapper.find('[data-test="analysis-pivot-copy"]').trigger('click')
    await flushPromises()
    // The Reports pivot's rectangle: a row for the column fields' labels, then the row fields and the values.
    expect(writeText).toHaveBeenCalledWith('\tTotal\npublisher\tsum of impressions\nAlpha\t1200.5\nBeta\\tCo\t\nTotal\t1200.5\n')
    expect(status(wrapper)).toBe('Copied 3 rows as TSV')
    wrapper.unmount()
  })

  it('saves the pivot as csv and as xlsx through main, by its id', async () => {
    const { wrapper, analysis } = await opened()
    await wrapper.find('[data-test="analysis-pivot-save-xlsx"]').trigger('click')
    await flushPromises()
    expect(analysis.savePivot).toHaveBeenLastCalledWith({ pivotId: 'pivot_1', format: 'xlsx' })
    expect(status(wrapper)).toBe('Saved sales pivot.xlsx')
    await wrapper.find('[data-test="analysis-pivot-save-csv"]').trigger('click')
    await flushPromises()
    expect(analysis.savePivot).toHaveBeenLastCalledWith({ pivotId: 'pivot_1', format: 'csv' })
    wrapper.unmount()
  })

  it("copies the SQL answer as TSV and saves it as csv (main runs the answer's query again)", async () => {
    const { wrapper, analysis, writeText } = await opened()
    await wrapper.find('textarea').setValue('SELECT sum(impressions) AS total FROM sales')
    await wrapper.find('textarea').trigger('keydown', { key: 'Enter', ctrlKey: true })
    await flushPromises()
    expect(wrapper.find('[data-test="analysis-sql-rows"] td').text()).toBe('2,003')
    await wrapper.find('[data-test="analysis-sql-copy"]').trigger('click')
    await flushPromises()
    expect(writeText).toHaveBeenCalledWith('total\n2003\n')
    expect(status(wrapper)).toBe('Copied 1 row as TSV')
    await wrapper.find('[data-test="analysis-sql-save"]').trigger('click')
    await flushPromises()
    expect(analysis.saveSql).toHaveBeenCalledWith({ fileIds: ['file-1'], query: 'SELECT sum(impressions) AS total FROM sales' })
    expect(status(wrapper)).toBe('Saved sales query.csv')
    wrapper.unmount()
  })

  it('a save that fails says so in a sentence', async () => {
    const { wrapper, analysis } = await opened()
    analysis.savePivot.mockImplementationOnce(
      () => Promise.resolve({ ok: false as const, error: { code: 'storage', message: 'The folder Reports is read-only; choose another.' } }) as never,
    )
    await wrapper.find('[data-test="analysis-pivot-save-csv"]').trigger('click')
    await flushPromises()
    expect(status(wrapper)).toBe('The pivot could not be saved: The folder Reports is read-only; choose another.')
    wrapper.unmount()
  })
})
