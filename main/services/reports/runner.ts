import type { ReportDefinition, ReportInfoView, Series, TimeSeriesView } from '@contract'
import { TOTAL_LINE } from '../../../common/lines'
import type { ReportingClient } from '../reporting/client'
import { alignByName, categoryLabels, fitLength, readAnswer, sharedCategories, uniqueMarkers, type SeriesAnswer } from './answers'
import { comparisonRange, presentRange, type DayRange } from './dates'
import { withBuilderField } from './errors'
import { lineLabel, mergeMappings } from './labels'
import { topLines } from './ranking'
import { reduceView } from './reducer'
import { chartLines, planChart, timeSeriesBody, type ChartPlan } from './platform-body'
import { planScope, type ClockContext, type ReportScope } from './scope'
import { changeAgainst, seriesStats, totalOverflowed } from './stats'

export const DEFAULT_POINT_BUDGET = 2_000
/** Calls in flight at once: several metrics load together without flooding the platform. */
const PARALLEL_CALLS = 3

export interface RunContext {
  reporting: ReportingClient
  info: ReportInfoView
  clock: ClockContext
  /** Monotonic milliseconds, for the duration. */
  monotonic: () => number
}

export interface RunOptions {
  signal: AbortSignal
  pointBudget?: number
}

/**
 * Runs `work` over the items, a few at a time. The first failure aborts the calls still in
 * flight (their own signal) and is the one reported.
 */
export async function eachLimited<T, R>(
  items: readonly T[],
  limit: number,
  signal: AbortSignal,
  work: (item: T, signal: AbortSignal) => Promise<R>,
): Promise<R[]> {
  const controller = new AbortController()
  const linked = AbortSignal.any([signal, controller.signal])
  const results: R[] = []
  let next = 0
  let failure: { error: unknown } | null = null
  const worker = async (): Promise<void> => {
    while (failure === null && next < items.length) {
      const index = next++
      try {
        results[index] = await work(items[index] as T, linked)
      } catch (error) {
        if (failure === null) {
          failure = { error }
          controller.abort()
        }
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  if (failure !== null) throw (failure as { error: unknown }).error
  return results
}

const comparisonName = { previous_period: 'previous period', previous_year: 'previous year' } as const

/** The chart of a definition: ranking (top N), one call per metric and period, stats, reduction. */
export async function runTimeSeries(context: RunContext, definition: ReportDefinition, options: RunOptions): Promise<TimeSeriesView> {
  const { reporting, info, clock, monotonic } = context
  const { signal } = options
  const started = monotonic()
  const ranAt = clock.now().toISOString()
  // Everything that can be refused is refused here, before the first request.
  const scope = planScope(definition, info, clock)
  const chart = planChart(definition, info, scope)
  const notes = [...scope.notes]
  if (scope.filterTemplate !== null && scope.filters.length > 1) {
    notes.push('The platform documents filter logic for exports only; this chart may ignore it and apply every filter together.')
  }
  if (chart.isTime && definition.sort.length > 0) notes.push('Sorting applies to category charts; a time axis stays in time order.')

  const values = await lineValues(reporting, definition, scope, notes, signal)
  const lines = chartLines(definition, values)
  const compareDays: DayRange | null = definition.comparison === 'none' ? null : comparisonRange(scope.days, definition.comparison)
  const comparisonRangeView = compareDays === null ? null : presentRange(compareDays, scope.offset)

  const base = { ranAt, range: scope.range, comparisonRange: comparisonRangeView, granularity: chart.granularity, notes }
  if (lines.length === 0) {
    return {
      ...base,
      durationMs: Math.round(monotonic() - started),
      categories: [],
      comparisonCategories: [],
      series: [],
      markers: [],
      sourcePoints: 0,
      reduced: false,
    }
  }

  const calls = definition.metrics.flatMap((metric) => [
    { metric, days: scope.days, comparison: false },
    ...(compareDays === null ? [] : [{ metric, days: compareDays, comparison: true }]),
  ])
  const answers = await eachLimited(calls, PARALLEL_CALLS, signal, async (call, callSignal) => {
    const result = await reporting.timeSeries(timeSeriesBody(scope, chart, call.metric, lines, call.days), { signal: callSignal }).catch((error: unknown) => {
      throw withBuilderField(error, 'time_series')
    })
    return { ...call, answer: readAnswer(result, lines) }
  })
  signal.throwIfAborted()

  const main = answers.filter((entry) => !entry.comparison)
  const previous = answers.filter((entry) => entry.comparison)
  const categories = sharedCategories(
    main.map((entry) => entry.answer),
    chart.isTime,
  )
  const previousCategories = sharedCategories(
    previous.map((entry) => entry.answer),
    chart.isTime,
  )
  // A time comparison is matched by position (day 1 with day 1); a category one by category.
  const comparisonCategories = previous.length === 0 ? [] : chart.isTime ? fitLength(previousCategories, categories.length, '') : categories.slice()
  const mappings = mergeMappings(main.map((entry) => entry.answer.mappings))

  const series: Series[] = []
  const unsummed: string[] = []
  for (const metric of definition.metrics) {
    const additive = info.dataFields.find((field) => field.name === metric)?.additive ?? false
    const current = main.find((entry) => entry.metric === metric)?.answer
    const before = previous.find((entry) => entry.metric === metric)?.answer
    for (const line of lines) {
      const label = lineLabel(line, chart.breakdown, mappings)
      const values = current === undefined ? categories.map(() => null) : alignByName(current, line, categories)
      const stats = seriesStats(values, additive)
      if (totalOverflowed(stats, additive)) unsummed.push(`${label} (${metric})`)
      const role = line === TOTAL_LINE ? 'total' : 'line'
      if (before === undefined) {
        series.push({ key: `${metric}|${line}`, metric, line, label, role, values, stats })
        continue
      }
      const earlier = comparisonValues(before, line, chart, previousCategories, categories)
      const earlierStats = seriesStats(earlier, additive)
      series.push({ key: `${metric}|${line}`, metric, line, label, role, values, stats: { ...stats, change: changeAgainst(stats, earlierStats, additive) } })
      series.push({
        key: `${metric}|${line}|compare`,
        metric,
        line,
        label: `${label} (${comparisonName[definition.comparison as keyof typeof comparisonName]})`,
        role: 'comparison',
        values: earlier,
        stats: earlierStats,
      })
    }
  }

  if (unsummed.length > 0) notes.push(unsummedNote(unsummed))
  const reduced = reduceView({ categories, comparisonCategories, series }, options.pointBudget ?? DEFAULT_POINT_BUDGET)
  const labels = chart.isTime
    ? {}
    : categoryLabels(
        answers.map((entry) => entry.answer),
        reduced.categories,
      )
  return {
    ...base,
    ...reduced,
    durationMs: Math.round(monotonic() - started),
    ...(Object.keys(labels).length > 0 ? { categoryLabels: labels } : {}),
    markers: uniqueMarkers(main.map((entry) => entry.answer)),
  }
}

/** The sentence for lines whose total cannot be shown; the chart still draws them. */
function unsummedNote(labels: readonly string[]): string {
  const named = labels.length > 3 ? `${labels.slice(0, 3).join(', ')} and ${labels.length - 3} more` : labels.join(', ')
  return `No total is shown for ${named}: the platform answered numbers too large to add up. The chart shows them as answered; check the data on the platform.`
}

/** The comparison's values on the main x-axis: by position on a time axis, by category otherwise. */
function comparisonValues(
  answer: SeriesAnswer,
  line: string,
  chart: ChartPlan,
  previousCategories: readonly string[],
  categories: readonly string[],
): Array<number | null> {
  if (!chart.isTime) return alignByName(answer, line, categories)
  return fitLength(alignByName(answer, line, previousCategories), categories.length, null)
}

/** The breakdown values to draw: ranked (top N) or picked. */
async function lineValues(
  reporting: ReportingClient,
  definition: ReportDefinition,
  scope: ReportScope,
  notes: string[],
  signal: AbortSignal,
): Promise<string[]> {
  if (definition.breakdown.length === 0) return []
  const lines = definition.lines
  if (lines.mode === 'pick') return [...new Set(lines.values)]
  const metric = lines.by ?? definition.metrics[0] ?? ''
  const ranked = await topLines(reporting, scope, definition.breakdown, metric, lines.count, signal)
  if (ranked.length < lines.count) {
    notes.push(
      `Only ${ranked.length} ${ranked.length === 1 ? 'value' : 'values'} of ${definition.breakdown.join(' / ')} ${ranked.length === 1 ? 'has' : 'have'} data in this range.`,
    )
  }
  return ranked
}
