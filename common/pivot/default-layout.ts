import type { PivotSource } from './model'
import type { PivotLayout } from './types'

/**
 * The pivot a result opens on before the user arranges one: the breakdown down the side, the
 * chart's axis (time buckets) across, the first metric summed, rows by their total (largest
 * first), change columns when the run has a comparison.
 */
export function defaultPivotLayout(source: Pick<PivotSource, 'fields' | 'values' | 'comparison'>): PivotLayout {
  const axis = source.fields[source.fields.length - 1]
  const keys = source.fields.slice(0, -1)
  const rows = keys.length > 0 ? keys : axis === undefined ? [] : [axis]
  const columns = keys.length > 0 && axis !== undefined ? [axis] : []
  return {
    rows,
    columns,
    values: source.values.slice(0, 1).map((field) => ({ field, aggregate: 'sum' as const })),
    sort: { by: 'value', value: 0, column: null, direction: 'desc' },
    top: null,
    subtotals: true,
    showChange: source.comparison,
  }
}
