import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { AnalysisFilterInput, AnalysisPivot, OpenedFile, SqlRows } from '@contract'
import type { PivotLayout, PivotWindow, PivotWindowRequest } from '../../../common/pivot/types'
import { api, errorMessage, unwrap } from '../api/bridge'

/**
 * Local analysis: the files opened in main (by id; the page never knows a path), the one being
 * looked at, its layout and filters, the pivot main computed (read a window at a time by the
 * grid) and the SQL box's last answer.
 */

const NUMERIC = /INT|DOUBLE|FLOAT|DECIMAL|REAL|NUMERIC/i

/** A first layout for a file: its first text column down the side, its first number column summed, largest first. */
export function firstLayout(file: OpenedFile): PivotLayout {
  const number = file.columns.find((column) => NUMERIC.test(column.type)) ?? file.columns[0]
  const key = file.columns.find((column) => !NUMERIC.test(column.type) && column.name !== number?.name) ?? file.columns[0]
  return {
    rows: key ? [key.name] : [],
    columns: [],
    values: [{ field: number?.name ?? '', aggregate: number && NUMERIC.test(number.type) ? 'sum' : 'count' }],
    sort: { by: 'value', value: 0, column: null, direction: 'desc' },
    top: null,
    subtotals: false,
    showChange: false,
  }
}

export const useAnalysisStore = defineStore('analysis', () => {
  const files = ref<OpenedFile[]>([])
  const activeId = ref<string | null>(null)
  const layout = ref<PivotLayout | null>(null)
  const filters = ref<AnalysisFilterInput[]>([])
  const pivot = shallowRef<AnalysisPivot | null>(null)
  const busy = ref(false)
  const error = ref<string | null>(null)
  const sqlRows = shallowRef<SqlRows | null>(null)
  const sqlError = ref<string | null>(null)
  /** The query whose answer sqlRows holds: Save CSV runs it again in main. */
  const sqlQuery = ref<string | null>(null)
  const active = computed(() => files.value.find((file) => file.id === activeId.value) ?? null)

  async function attempt(work: () => Promise<void>): Promise<void> {
    busy.value = true
    error.value = null
    try {
      await work()
    } catch (caught) {
      error.value = errorMessage(caught)
    } finally {
      busy.value = false
    }
  }

  async function compute(): Promise<void> {
    const file = active.value
    if (file === null || layout.value === null) return
    pivot.value = await unwrap(api().analysis.pivot({ fileId: file.id, layout: layout.value, filters: filters.value }))
  }

  async function adopt(file: OpenedFile): Promise<void> {
    files.value = [...files.value.filter((known) => known.id !== file.id), file]
    activeId.value = file.id
    layout.value = firstLayout(file)
    filters.value = []
    pivot.value = null
    await compute()
  }

  return {
    files,
    activeId,
    active,
    layout,
    filters,
    pivot,
    busy,
    error,
    sqlRows,
    sqlError,
    sqlQuery,
    openFile: () =>
      attempt(async () => {
        const file = await unwrap(api().analysis.openFile({}))
        if (file !== null) await adopt(file)
      }),
    openExport: (jobId: string) => attempt(async () => adopt(await unwrap(api().analysis.openExport({ jobId })))),
    select: (id: string) =>
      attempt(async () => {
        const file = files.value.find((known) => known.id === id)
        if (file !== undefined) await adopt(file)
      }),
    update: (change: Partial<PivotLayout>) =>
      attempt(async () => {
        if (layout.value === null) return
        layout.value = { ...layout.value, ...change }
        await compute()
      }),
    setFilters: (next: AnalysisFilterInput[]) =>
      attempt(async () => {
        filters.value = next
        await compute()
      }),
    close: (id: string) =>
      attempt(async () => {
        await unwrap(api().analysis.close({ fileId: id }))
        files.value = files.value.filter((file) => file.id !== id)
        if (activeId.value === id) {
          activeId.value = null
          pivot.value = null
          layout.value = null
        }
      }),
    window: (request: PivotWindowRequest): Promise<PivotWindow> => {
      const current = pivot.value
      if (current === null) return Promise.reject(new Error('There is no pivot to draw; apply a layout first.'))
      return unwrap(api().analysis.window({ pivotId: current.pivotId, request }))
    },
    async runSql(query: string): Promise<void> {
      sqlError.value = null
      try {
        sqlRows.value = await unwrap(api().analysis.sql({ fileIds: files.value.map((file) => file.id), query }))
        sqlQuery.value = query
      } catch (caught) {
        sqlRows.value = null
        sqlQuery.value = null
        sqlError.value = errorMessage(caught)
      }
    },
  }
})
