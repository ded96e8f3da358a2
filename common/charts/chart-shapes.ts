/**
 * What the chart pieces read from a report result, written as shapes rather than imported from
 * the contract: common/ imports nothing but itself, so the renderer and main both hand in their
 * `TimeSeriesView` (it has these fields and more) and get the same option back.
 */

import type { SeriesLike } from '../pivot/series-records'

/** The contract's `chartTypes`, kept in step by test/unit/charts/chart-shapes.test.ts. */
export type ChartStyle = 'line' | 'area' | 'stacked' | 'bar'

/** A series as the pivot reads it, with the stats a tile's number and the series table show. */
export interface ChartLine extends SeriesLike {
  stats: { total: number | null; change: number | null }
}

export interface ChartResult {
  categories: readonly string[]
  categoryLabels?: Readonly<Record<string, string>> | undefined
  granularity: string
  reduced: boolean
  comparisonRange: { start: string; end: string } | null
  series: readonly ChartLine[]
  markers: readonly { date: string; message: string; author: string }[]
}

export interface ChartField {
  name: string
  displayType: 'int' | 'float' | 'percent'
  precision: number
}
