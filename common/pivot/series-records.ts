import type { PivotRecord, PivotSource } from './model'
import { TIME_FIELD } from './types'

/**
 * A report run's result (the chart's series) as records a pivot reads: one record per line and
 * time bucket (or category), keyed by the breakdown keys' names and the bucket, with one number
 * per metric and the comparison period's numbers at the same position. Structural types, so
 * the page and main read the same contract shape without common/ importing it.
 */
export interface SeriesLike {
  key: string
  metric: string
  /** The breakdown values joined by U+0002, or `__total__`. */
  line: string
  /** "A / B": the values' names where the platform gave them. */
  label: string
  role: 'line' | 'total' | 'comparison'
  values: readonly (number | null)[]
}

export interface SeriesResultLike {
  granularity: string
  categories: readonly string[]
  categoryLabels?: Record<string, string> | undefined
  comparisonRange: unknown
  series: readonly SeriesLike[]
}

const LINE_SEPARATOR = '\u0002'
const TOTAL_LINE = '__total__'

/** The field of the chart's axis: the time bucket, or the key a category chart is drawn over. */
export function axisField(result: Pick<SeriesResultLike, 'granularity'>): string {
  return result.granularity.startsWith('granularity_') ? TIME_FIELD : result.granularity
}

/** The breakdown values' names of a line, one per key: from the label when it splits cleanly, else the raw values. */
function lineKeys(series: SeriesLike, keyCount: number): string[] {
  if (series.line === TOTAL_LINE) return new Array<string>(keyCount).fill('Total')
  const values = series.line.split(LINE_SEPARATOR)
  const names = series.label.split(' / ')
  const picked = names.length === values.length ? names : values
  return Array.from({ length: keyCount }, (_unused, index) => picked[index] ?? '')
}

/** A day's bucket reads as its date: `2026-11-20`, not `2026-11-20 00:00:00`. */
function bucketLabels(result: SeriesResultLike): string[] {
  if (axisField(result) !== TIME_FIELD) return result.categories.map((category) => result.categoryLabels?.[category] ?? category)
  const midnight = result.categories.every((category) => category.endsWith(' 00:00:00'))
  return result.categories.map((category) => (midnight ? category.slice(0, -' 00:00:00'.length) : category))
}

/** What a result's pivot is made of (its fields, metrics and whether it has a comparison), without building its records. */
export function seriesShape(result: SeriesResultLike, breakdown: readonly string[]): Pick<PivotSource, 'fields' | 'values' | 'comparison'> {
  const metrics = [...new Set(result.series.filter((series) => series.role !== 'comparison').map((series) => series.metric))]
  const comparison = result.comparisonRange !== null && result.comparisonRange !== undefined
  return { fields: [...breakdown, axisField(result)], values: metrics, comparison }
}

export function seriesRecords(result: SeriesResultLike, breakdown: readonly string[]): PivotSource {
  const { values: metrics, comparison } = seriesShape(result, breakdown)
  const comparisons = new Map(result.series.filter((series) => series.role === 'comparison').map((series) => [series.key, series]))
  // Lines when there are any: the platform's Total also counts the lines a top N left out, so adding it would count them twice.
  const hasLines = result.series.some((series) => series.role === 'line')
  const buckets = bucketLabels(result)
  const byLine = new Map<string, { keys: string[]; records: PivotRecord[] }>()
  for (const series of result.series) {
    if (series.role === 'comparison' || (hasLines && series.role === 'total')) continue
    const metric = metrics.indexOf(series.metric)
    let line = byLine.get(series.line)
    if (line === undefined) {
      const keys = lineKeys(series, breakdown.length)
      line = {
        keys,
        records: buckets.map((bucket) => ({
          keys: [...keys, bucket],
          values: new Array<number | null>(metrics.length).fill(null),
          compare: comparison ? new Array<number | null>(metrics.length).fill(null) : null,
        })),
      }
      byLine.set(series.line, line)
    }
    const previous = comparisons.get(`${series.key}|compare`)
    line.records.forEach((record, index) => {
      ;(record.values as (number | null)[])[metric] = series.values[index] ?? null
      if (record.compare !== null && previous) (record.compare as (number | null)[])[metric] = previous.values[index] ?? null
    })
  }
  const records = [...byLine.values()].flatMap((line) => line.records)
  return { ...seriesShape(result, breakdown), records }
}
