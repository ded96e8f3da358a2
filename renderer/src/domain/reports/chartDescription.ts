import type { ChartType, TimeSeriesView } from '@contract'
import { chartSeriesName } from '../../../../common/charts/chart-selection'
import { categoryText, isCategoryChart } from '../../../../common/charts/series'

const CHART_NAMES: Record<ChartType, string> = { line: 'Line chart', area: 'Area chart', stacked: 'Stacked area chart', bar: 'Bar chart' }

/**
 * What the chart's canvas says to a screen reader: the kind of chart, what it measures, its
 * x-axis, and every series it draws by the name the legend shows (switched-off lines left out),
 * so which lines are on can be heard as well as seen. Built here rather than by ECharts' aria
 * component, which composed it again inside every legend toggle's update (~2 ms of 50 lines).
 */
export function chartDescription(result: TimeSeriesView, hidden: ReadonlySet<string>, type: ChartType): string {
  const metrics = [...new Set(result.series.map((series) => series.metric))]
  const multiMetric = metrics.length > 1
  const shown = result.series.filter((series) => !hidden.has(series.key))
  const first = result.categories[0]
  const last = result.categories.at(-1)
  const count = result.categories.length
  const axis =
    first === undefined || last === undefined
      ? 'no data'
      : isCategoryChart(result)
        ? `${count} ${count === 1 ? 'category' : 'categories'}, ${categoryText(result, first)} to ${categoryText(result, last)}`
        : `${count} ${count === 1 ? 'point' : 'points'} from ${first} to ${last}`
  const lines =
    result.series.length === 0
      ? 'no series'
      : shown.length === 0
        ? 'every series is switched off'
        : `${shown.length} of ${result.series.length} series shown: ${shown.map((series) => chartSeriesName(series, multiMetric)).join(', ')}`
  return `${CHART_NAMES[type]} of ${metrics.join(', ') || 'no metric'}, ${axis}; ${lines}.`
}
