/**
 * Min/max reduction of series that share one category x-axis, to a point budget per series.
 *
 * The categories are cut into budget/2 buckets of consecutive points. Each bucket becomes two
 * points: the categories at its first and last index, and, per series, that series' minimum and
 * maximum within the bucket, in the order they occur. So a one-point spike survives (it is its
 * bucket's max), every series keeps the same categories (they stay aligned), and the line's
 * envelope is what the full data would paint at one bucket per pixel.
 *
 * A bucket where a series has no value at all stays a gap (two nulls). A null inside a bucket
 * that also has values is narrower than a pixel and is not kept.
 */

import type { TimeSeriesView } from '@contract'

export interface Reducible {
  /** Parallel label arrays of the x-axis (the categories, the comparison's categories…), all the same length. */
  labels: string[][]
  series: Array<Array<number | null>>
}

export interface Reduced extends Reducible {
  reduced: boolean
}

export function reduceToBudget(input: Reducible, budget: number): Reduced {
  const length = input.labels[0]?.length ?? input.series[0]?.length ?? 0
  const buckets = Math.floor(budget / 2)
  if (length <= budget || buckets < 1) return { ...input, reduced: false }

  const labels = input.labels.map(() => [] as string[])
  const series = input.series.map(() => [] as Array<number | null>)
  for (let bucket = 0; bucket < buckets; bucket++) {
    // length > budget >= 2 * buckets, so every bucket holds at least two points.
    const first = Math.floor((bucket * length) / buckets)
    const last = Math.floor(((bucket + 1) * length) / buckets) - 1
    input.labels.forEach((source, index) => {
      labels[index]?.push(source[first] ?? '', source[last] ?? '')
    })
    input.series.forEach((values, index) => {
      let minIndex = -1
      let maxIndex = -1
      for (let position = first; position <= last; position++) {
        const value = values[position]
        if (value === null || value === undefined) continue
        if (minIndex < 0 || value < (values[minIndex] as number)) minIndex = position
        if (maxIndex < 0 || value > (values[maxIndex] as number)) maxIndex = position
      }
      const target = series[index] as Array<number | null>
      if (minIndex < 0) target.push(null, null)
      else if (minIndex <= maxIndex) target.push(values[minIndex] as number, values[maxIndex] as number)
      else target.push(values[maxIndex] as number, values[minIndex] as number)
    })
  }
  return { labels, series, reduced: true }
}

/**
 * A chart result as the page gets it: every series (and the comparison's categories) reduced
 * together to `budget` points, `sourcePoints` saying how many there were. The stats were
 * computed before, from every point.
 */
export function reduceView<View extends Pick<TimeSeriesView, 'categories' | 'comparisonCategories' | 'series'>>(
  view: View,
  budget: number,
): View & Pick<TimeSeriesView, 'sourcePoints' | 'reduced'> {
  const withComparison = view.comparisonCategories.length > 0
  const reduced = reduceToBudget(
    { labels: withComparison ? [view.categories, view.comparisonCategories] : [view.categories], series: view.series.map((entry) => entry.values) },
    budget,
  )
  return {
    ...view,
    categories: reduced.labels[0] ?? [],
    comparisonCategories: reduced.labels[1] ?? [],
    series: view.series.map((entry, index) => ({ ...entry, values: reduced.series[index] ?? entry.values })),
    sourcePoints: view.categories.length,
    reduced: reduced.reduced,
  }
}
