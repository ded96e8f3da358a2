import { MAX_CHART_LINES, type AlertRule, type ReportDefinition, type ReportInfoView, type Series, type TimeSeriesView } from '@contract'
import { AppError } from '../errors'
import { chooseOffset, formatDay, resolveTokens, suggestGranularity } from '../reports/dates'
import { judgeLine, judgeWindow, localStarts, seasonalIndex, type AlertGranularity, type JudgedLine } from './baseline'

/**
 * What a check or a backtest fetches and how it judges it. The preset's own chart is asked
 * again over a longer range (the weeks its baseline looks back at, before the judged window)
 * at the preset's granularity, with the rules' metrics, its lines (top N or picked) and the
 * total, through the app's own report runner: the same requests, labels and errors as a run.
 */

export const DEFAULT_LAG_HOURS = 4
const HOUR_MS = 3_600_000

export interface WatchPlan {
  /** The definition actually run: absolute dates, a fixed offset, the rules' metrics, no comparison. */
  definition: ReportDefinition
  granularity: AlertGranularity
  offset: number
  /** The first local day judged (days since 1970-01-01); the days before only feed baselines. */
  judgedFromDay: number
  notes: string[]
}

export interface PlanOptions {
  now: Date
  osOffsetMinutes: number
  rules: readonly AlertRule[]
  /** Judge this many days ending at the range's end (a backtest: 8 weeks); absent, the preset's own range. */
  judgeDays?: number
}

function granularityOf(definition: ReportDefinition, days: number): AlertGranularity {
  const asked = definition.granularity.trim().replace(/^granularity_/, '')
  const chosen = asked === 'auto' ? suggestGranularity(days) : asked
  if (chosen === 'hour' || chosen === 'day') return `granularity_${chosen}`
  throw new AppError(
    'validation',
    `Alerts compare hours or days with the same weekday in earlier weeks; this preset's chart is by ${chosen}. Set its granularity to hour or day and save it again.`,
    { field: 'granularity' },
  )
}

/** The request to make for a preset's rules now, or a sentence saying why it cannot be watched. */
export function planWatch(definition: ReportDefinition, info: ReportInfoView, options: PlanOptions): WatchPlan {
  if (options.rules.length === 0) throw new AppError('validation', 'This preset has no alert rules yet. Add a rule, then check again.')
  for (const rule of options.rules) {
    if (!info.dataFields.some((field) => field.name === rule.metric)) {
      throw new AppError(
        'validation',
        `Rule "${rule.id}" watches "${rule.metric}", which is not a metric of ${info.project}/${info.report}. Pick another metric.`,
        {
          field: 'metric',
        },
      )
    }
  }
  const chosen = chooseOffset(definition.timezone, {
    reportTimezone: info.timezone,
    supportsTimezone: info.supportsTimezone,
    osOffsetMinutes: options.osOffsetMinutes,
  })
  const range = resolveTokens(definition.dates.start, definition.dates.end, chosen.offset, options.now)
  const granularity = granularityOf(definition, range.end - range.start + 1)
  const judgedFromDay = options.judgeDays === undefined ? range.start : range.end - options.judgeDays + 1
  const weeks = Math.max(...options.rules.map((rule) => rule.weeks))
  const metrics = [...new Set(options.rules.map((rule) => rule.metric))]
  // The total is watched too whenever the chart has room for it (a chart takes at most 50 lines).
  const lineCount = definition.lines.mode === 'top' ? definition.lines.count : new Set(definition.lines.values).size
  const includeTotal = definition.lines.includeTotal || lineCount < MAX_CHART_LINES
  // Ranked by the preset's own ranking metric, not by whichever metric the rules watch.
  const lines =
    definition.lines.mode === 'top'
      ? { ...definition.lines, by: definition.lines.by ?? definition.metrics[0] ?? null, includeTotal }
      : { ...definition.lines, includeTotal }
  return {
    definition: {
      ...definition,
      dates: { start: formatDay(judgedFromDay - weeks * 7), end: formatDay(range.end) },
      timezone: { mode: 'fixed', offset: chosen.offset },
      granularity: granularity.slice('granularity_'.length),
      metrics,
      lines,
      comparison: 'none',
      chart: { ...definition.chart, hidden: [] },
    },
    granularity,
    offset: chosen.offset,
    judgedFromDay,
    notes: chosen.notes,
  }
}

/** Up to when the data is complete: `lagHours` before now. */
export function dataAsOf(now: Date, lagHours: number): Date {
  return new Date(now.getTime() - lagHours * HOUR_MS)
}

export interface JudgedSeries {
  rule: AlertRule
  series: Series
  judged: JudgedLine
}

/** Every line of the chart judged by every rule on its metric; the seasonal index is built once per look-back. */
export function judgeView(
  view: Pick<TimeSeriesView, 'categories' | 'series'>,
  plan: Pick<WatchPlan, 'granularity' | 'offset' | 'judgedFromDay'>,
  rules: readonly AlertRule[],
  asOf: Date,
): JudgedSeries[] {
  // The x-axis is parsed once for the window and every look-back.
  const starts = localStarts(view.categories)
  const window = judgeWindow(starts, plan.granularity, plan.offset, plan.judgedFromDay, asOf.getTime())
  const indexes = new Map<number, Int32Array>()
  const judged: JudgedSeries[] = []
  for (const rule of rules) {
    let index = indexes.get(rule.weeks)
    if (index === undefined) {
      index = seasonalIndex(starts, rule.weeks)
      indexes.set(rule.weeks, index)
    }
    for (const series of view.series) {
      if (series.metric !== rule.metric || series.role === 'comparison') continue
      judged.push({ rule, series, judged: judgeLine(series.values, index, rule, window) })
    }
  }
  return judged
}
