import { computed, shallowRef, watch } from 'vue'
import type { DataFieldInfo, PivotLayoutInput } from '@contract'
import { defaultPivotLayout } from '../../../../common/pivot/default-layout'
import { computePivot, layoutProblem, type ComputedPivot } from '../../../../common/pivot/model'
import { seriesRecords } from '../../../../common/pivot/series-records'
import { measureLabel } from '../../../../common/pivot/table'
import { TIME_FIELD, type PivotColumn, type PivotLayout, type PivotSort } from '../../../../common/pivot/types'
import { formatChange, formatValue } from '../../../../common/charts/value-format'
import { useReportsStore } from '../../stores/reports'

/** A field's name in the pivot's headers: the time bucket reads "Time". */
export const fieldTitle = (field: string): string => (field === TIME_FIELD ? 'Time' : field)

/**
 * The Pivot tab's pivot of the chart's result (run now or kept from an earlier run: whatever
 * the chart shows, offline included), in the layout the definition remembers (`chart.pivot`,
 * saved with a preset), or a default one until the user arranges it. A remembered layout that
 * no longer fits the result (a metric removed since) falls back to the default with a sentence.
 */
export function useResultPivot() {
  const store = useReportsStore()
  const source = computed(() => (store.result && store.definition ? seriesRecords(store.result, store.definition.breakdown) : null))
  const saved = computed(() => store.definition?.chart.pivot ?? null)
  const problem = computed(() => (source.value && saved.value ? layoutProblem(source.value, saved.value) : null))
  const layout = computed<PivotLayout | null>(() => {
    if (!source.value) return null
    return saved.value && problem.value === null ? saved.value : defaultPivotLayout(source.value)
  })
  // Computed after the tab's own paint and kept as a plain object: reactive proxies over 100,000 cells would cost more than the pivot.
  const pivot = shallowRef<ComputedPivot | null>(null)
  watch(
    [source, layout],
    ([records, current]) => {
      pivot.value = records && current && layoutProblem(records, current) === null ? computePivot(records, current) : null
    },
    { immediate: true },
  )

  const fieldInfo = (name: string | undefined): DataFieldInfo | undefined => store.info?.dataFields.find((field) => field.name === name)
  const valueName = (index: number): string => {
    const value = layout.value?.values[index]
    return value ? (value.aggregate === 'sum' ? value.field : `${value.field} (${value.aggregate})`) : ''
  }
  const columnLabel = (column: PivotColumn): string => measureLabel(valueName(column.value), column)
  const formatCell = (number: number, column: PivotColumn): string => {
    if (column.measure === 'percent') return formatChange(number)
    const value = layout.value?.values[column.value]
    if (value?.aggregate === 'count') return number.toLocaleString('en-US')
    const text = formatValue(number, fieldInfo(value?.field))
    return column.measure === 'change' && number > 0 ? `+${text}` : text
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
    const sort = layout.value?.sort
    if (!sort || sort.by === 'label' || sort.value !== column.value) return null
    const measure = sort.by === 'value' ? 'value' : sort.measure === 'absolute' ? 'change' : 'percent'
    const path = column.header.kind === 'total' ? null : column.header.path
    return measure === column.measure && JSON.stringify(sort.column) === JSON.stringify(path) ? sort.direction : null
  }

  return { source, layout, pivot, problem, columnLabel, valueName, formatCell, update, sortBy, sortedBy }
}
