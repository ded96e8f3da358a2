import { computed, onScopeDispose, shallowRef, toRaw, watch } from 'vue'
import type { DataFieldInfo, PivotLayoutInput } from '@contract'
import { defaultPivotLayout } from '../../../../common/pivot/default-layout'
import { layoutProblem } from '../../../../common/pivot/model'
import { seriesShape } from '../../../../common/pivot/series-records'
import { measureLabel } from '../../../../common/pivot/table'
import { TIME_FIELD, type PivotColumn, type PivotLayout, type PivotSort } from '../../../../common/pivot/types'
import { formatCount, formatValue } from '../../../../common/charts/value-format'
import { pivotCellText } from '../../../../common/pivot/cell-text'
import { useReportsStore } from '../../stores/reports'
import { createPivotWorkerClient, type PivotWorkerPort, type RemotePivot } from './pivotWorkerClient'

/** A field's name in the pivot's headers: the time bucket reads "Time". */
export const fieldTitle = (field: string): string => (field === TIME_FIELD ? 'Time' : field)

/**
 * The Pivot tab's pivot of the chart's result (run now or kept from an earlier run: whatever
 * the chart shows, offline included), in the layout the definition remembers (`chart.pivot`,
 * saved with a preset), or a default one until the user arranges it. A remembered layout that
 * no longer fits the result (a metric removed since) falls back to the default with a sentence.
 */
export function useResultPivot(spawnWorker?: () => PivotWorkerPort) {
  const store = useReportsStore()
  /** The result's fields and metrics; its records are built in the worker, with the pivot. */
  const source = computed(() => (store.result && store.definition ? seriesShape(store.result, store.definition.breakdown) : null))
  const saved = computed(() => store.definition?.chart.pivot ?? null)
  const problem = computed(() => (source.value && saved.value ? layoutProblem(source.value, saved.value) : null))
  const layout = computed<PivotLayout | null>(() => {
    if (!source.value) return null
    return saved.value && problem.value === null ? saved.value : defaultPivotLayout(source.value)
  })
  // Computed in a worker (100,000 records took ~0.4 s of the page's thread), read a window at a time; a newer layout or
  // result cancels the older computation and its answer is dropped. Until the new one lands, the old pivot stays drawn.
  const pivot = shallowRef<(RemotePivot & { layout: PivotLayout }) | null>(null)
  /** The layout of the pivot drawn: its headers, labels and sort arrows, until the next one lands. */
  const drawn = computed(() => pivot.value?.layout ?? layout.value)
  const computing = shallowRef(false)
  const pivotError = shallowRef<string | null>(null)
  const worker = createPivotWorkerClient(spawnWorker)
  onScopeDispose(() => worker.dispose())
  let resultKey = 0
  let keyed: { result: unknown; breakdown: string } | null = null
  watch(
    [source, layout],
    async ([shape, current]) => {
      const result = store.result ? toRaw(store.result) : null
      const breakdown = [...(store.definition?.breakdown ?? [])]
      if (!shape || !current || !result || layoutProblem(shape, current) !== null) {
        worker.cancel()
        pivot.value = null
        computing.value = false
        return
      }
      if (keyed === null || keyed.result !== result || keyed.breakdown !== JSON.stringify(breakdown)) {
        resultKey += 1
        keyed = { result, breakdown: JSON.stringify(breakdown) }
      }
      // Plain copies: a worker cannot be sent the store's reactive proxies.
      const plainLayout = JSON.parse(JSON.stringify(current)) as PivotLayout
      computing.value = true
      try {
        const answer = await worker.compute(resultKey, result, breakdown, plainLayout)
        if (answer === null) return
        pivot.value = { ...answer, layout: plainLayout }
        pivotError.value = null
        computing.value = false
      } catch (error) {
        pivot.value = null
        pivotError.value = `The pivot could not be computed: ${(error as Error).message}`
        computing.value = false
      }
    },
    { immediate: true },
  )

  const fieldInfo = (name: string | undefined): DataFieldInfo | undefined => store.info?.dataFields.find((field) => field.name === name)
  const valueName = (index: number): string => {
    const value = drawn.value?.values[index]
    return value ? (value.aggregate === 'sum' ? value.field : `${value.field} (${value.aggregate})`) : ''
  }
  const columnLabel = (column: PivotColumn): string => measureLabel(valueName(column.value), column)
  const formatCell = (number: number, column: PivotColumn): string => {
    const value = drawn.value?.values[column.value]
    return pivotCellText(number, column, (shown) => (value?.aggregate === 'count' ? formatCount(shown) : formatValue(shown, fieldInfo(value?.field))))
  }

  /** Changes the remembered layout (the definition's, so a preset saves it). */
  function update(change: Partial<PivotLayout>): void {
    if (!store.definition || !layout.value) return
    store.definition.chart.pivot = { ...layout.value, ...change } satisfies PivotLayoutInput
  }

  /** A header click: sort by that column, larger first; a second click turns the direction. */
  function sortBy(column: PivotColumn): void {
    const current = layout.value?.sort
    const path = column.header.kind === 'total' ? null : column.header.path
    const base: PivotSort =
      column.measure === 'value'
        ? { by: 'value', value: column.value, column: path, direction: 'desc' }
        : { by: 'change', value: column.value, column: path, measure: column.measure === 'change' ? 'absolute' : 'percent', direction: 'desc' }
    const same = current !== undefined && JSON.stringify({ ...current, direction: 'desc' }) === JSON.stringify(base)
    update({ sort: same && current.direction === 'desc' ? { ...base, direction: 'asc' } : base })
  }
  const sortedBy = (column: PivotColumn): 'asc' | 'desc' | null => {
    const sort = drawn.value?.sort
    if (!sort || sort.by === 'label' || sort.value !== column.value) return null
    const measure = sort.by === 'value' ? 'value' : sort.measure === 'absolute' ? 'change' : 'percent'
    const path = column.header.kind === 'total' ? null : column.header.path
    return measure === column.measure && JSON.stringify(sort.column) === JSON.stringify(path) ? sort.direction : null
  }

  return { source, layout, drawn, pivot, computing, pivotError, problem, columnLabel, valueName, formatCell, update, sortBy, sortedBy }
}
