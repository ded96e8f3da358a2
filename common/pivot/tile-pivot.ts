/**
 * A pivot tile: the tile's chart result pivoted in the layout its preset keeps (`chart.pivot`, as
 * the Pivot tab saved it), or the default layout when the preset has none or its layout no longer
 * fits the result (a metric removed since). Read-only: the tile never changes the preset's layout.
 * A tile's result is small (a few hundred points a line), so it is pivoted at once. The page's
 * tile and main's board file (PDF, PNG) both draw it from here.
 */
import { withMinusSign } from '../format'
import { lazy } from '../lazy'
import { pivotCellText } from './cell-text'
import { defaultPivotLayout } from './default-layout'
import { computePivot, layoutProblem, type ComputedPivot } from './model'
import { seriesRecords, type SeriesResultLike } from './series-records'
import { measureLabel } from './table'

import type { PivotColumn, PivotLayout } from './types'

/** Made once: a tile's pivot formats every cell. */
const plainNumber = lazy(() => new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }))

/** What of a report definition a pivot tile reads: its breakdown and the pivot layout its preset keeps. */
export interface TilePivotDefinition {
  breakdown: readonly string[]
  chart: { pivot?: PivotLayout | undefined }
}

export interface TilePivot {
  pivot: ComputedPivot
  layout: PivotLayout
  /** true when the preset's own layout was used; false: the default one. */
  kept: boolean
  columnLabel(column: PivotColumn): string
  formatCell(number: number, column: PivotColumn): string
}

export function tilePivot(result: SeriesResultLike, definition: TilePivotDefinition): TilePivot {
  const source = seriesRecords(result, definition.breakdown)
  const saved = definition.chart.pivot
  const kept = saved !== undefined && layoutProblem(source, saved) === null
  const layout = kept && saved ? saved : defaultPivotLayout(source)
  const valueName = (index: number): string => {
    const value = layout.values[index]
    if (!value) return ''
    return value.aggregate === 'sum' ? value.field : `${value.field} (${value.aggregate})`
  }
  return {
    pivot: computePivot(source, layout),
    layout,
    kept,
    columnLabel: (column) => measureLabel(valueName(column.value), column),
    formatCell: (number, column) => pivotCellText(number, column, (shown) => withMinusSign(plainNumber().format(shown))),
  }
}
