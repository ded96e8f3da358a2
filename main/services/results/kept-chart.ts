import type { TimeSeriesView } from '@contract'
import { reduceToBudget } from '../reports/reducer'
import { DEFAULT_POINT_BUDGET } from '../reports/runner'

/**
 * A kept chart cut to the point budget the page asked for, the way a live run cuts its own
 * (runner.ts: min/max per bucket over the categories and the comparison's categories
 * together). A kept result may have run with a larger budget, or come from an older version
 * that kept every point; either way the page gets no more than it would from running again.
 * `sourcePoints` stays what the platform answered, so the chart's note still says "of N".
 */
export function reduceKeptChart(view: TimeSeriesView, pointBudget: number = DEFAULT_POINT_BUDGET): TimeSeriesView {
  const labels = view.comparisonCategories.length > 0 ? [view.categories, view.comparisonCategories] : [view.categories]
  const reduced = reduceToBudget({ labels, series: view.series.map((entry) => entry.values) }, pointBudget)
  if (!reduced.reduced) return view
  return {
    ...view,
    categories: reduced.labels[0] ?? [],
    comparisonCategories: reduced.labels[1] ?? [],
    series: view.series.map((entry, index) => ({ ...entry, values: reduced.series[index] ?? entry.values })),
    reduced: true,
  }
}
