import { randomUUID } from 'node:crypto'
import {
  ALERT_LIMITS,
  type AlertRule,
  type AlertSeriesView,
  type BacktestView,
  type Preset,
  type PresetRules,
  type ReportDefinition,
  type ReportInfoView,
  type TimeSeriesView,
} from '@contract'
import { alertSentence } from '../../../common/alert-words'
import { formatDateTime } from '../../../common/date-format'
import { AppError } from '../errors'
import type { EventHub } from '../events'
import type { FiredQuery, FiredStore, KeptAlert } from './fired-store'
import type { RuleStore } from './rules-store'
import type { AlertCheckResult, AlertFiring } from './types'
import { dataAsOf, judgeView, planWatch, type JudgedSeries, type WatchPlan } from './watch'

export type { AlertCheckResult, AlertFiring } from './types'

/** The reports side an alert check runs through: the app's own runner, not recorded in the run history. */
export interface AlertDataSource {
  infoOf(profileId: string, project: string, report: string, signal: AbortSignal): Promise<ReportInfoView>
  runChart(profileId: string, definition: ReportDefinition, signal: AbortSignal): Promise<TimeSeriesView>
}

/** A desktop notification whose click opens the alert (the host's; absent in the web host and the command line). */
export type AlertNotifier = (notification: { title: string; body: string; onClick: () => void }) => void

/** Points of a line kept with a fired alert for its view: six days of hours (or weeks of days) before it, a day after. */
const KEPT_BEFORE = 144
const KEPT_AFTER = 24

export interface CheckedDefinition {
  result: AlertCheckResult
  plan: WatchPlan
  view: TimeSeriesView
  judged: JudgedSeries[]
}

/** Checks rules over a definition: fetch, judge, list the firings. The command line's `--request` uses this alone. */
export async function checkDefinition(
  source: AlertDataSource,
  input: {
    profileId: string
    preset: string
    definition: ReportDefinition
    rules: readonly AlertRule[]
    now: Date
    lagHours: number
    osOffsetMinutes: number
    signal: AbortSignal
    judgeDays?: number
  },
): Promise<CheckedDefinition> {
  const { definition, signal } = input
  const info = await source.infoOf(input.profileId, definition.project, definition.report, signal)
  const plan = planWatch(definition, info, {
    now: input.now,
    osOffsetMinutes: input.osOffsetMinutes,
    rules: input.rules,
    ...(input.judgeDays === undefined ? {} : { judgeDays: input.judgeDays }),
  })
  const view = await source.runChart(input.profileId, plan.definition, signal)
  const asOf = dataAsOf(input.now, input.lagHours)
  const judged = judgeView(view, plan, input.rules, asOf)
  const firings: AlertFiring[] = []
  for (const { rule, series, judged: line } of judged) {
    for (const at of firedPositions(line.fired)) {
      firings.push({
        preset: input.preset,
        rule: rule.id,
        series: series.label,
        bucket: view.categories[at] as string,
        value: series.values[at] as number,
        baseline: line.baseline[at] as number,
        changePct: round(line.changePct[at] as number, 1),
        z: round(line.z[at] as number, 2),
      })
    }
  }
  return { result: { firings, dataAsOf: asOf.toISOString(), checkedSeries: judged.length }, plan, view, judged }
}

/** Rounded to `digits` decimals; a number too large to scale that far has no decimals left to round (1e307 × 10 would be Infinity). */
function round(value: number, digits: number): number {
  const scaled = value * 10 ** digits
  return Number.isFinite(scaled) ? Math.round(scaled) / 10 ** digits : value
}

/** What a backtest says about buckets left unjudged because their numbers are past a double's range. */
function unjudgedNotes(judged: readonly JudgedSeries[]): string[] {
  const count = judged.reduce((sum, entry) => sum + entry.judged.unjudged, 0)
  if (count === 0) return []
  return [
    `${count} ${count === 1 ? 'bucket was' : 'buckets were'} not judged: the platform answered numbers so far apart that their change cannot be computed. Check the data on the platform.`,
  ]
}

/** NaN (not judged) as the bridge's null. */
const orNull = (values: Float64Array): Array<number | null> => Array.from(values, (value) => (Number.isNaN(value) ? null : value))

function seriesView(entry: JudgedSeries): AlertSeriesView {
  const { series, judged } = entry
  return {
    key: series.key,
    label: series.label,
    role: series.role === 'total' ? 'total' : 'line',
    values: series.values,
    baseline: orNull(judged.baseline),
    low: orNull(judged.low),
    high: orNull(judged.high),
    fired: Array.from(judged.fired, (fired) => fired === 1),
    firedCount: judged.firedCount,
  }
}

/** Positions that fired, in order. */
function firedPositions(fired: Uint8Array): number[] {
  const positions: number[] = []
  fired.forEach((value, at) => {
    if (value === 1) positions.push(at)
  })
  return positions
}

export interface AlertServiceOptions {
  rules: RuleStore
  fired: FiredStore
  source: AlertDataSource
  presetOf(name: string): Promise<Preset>
  /** The connection a scheduled check runs on: the active one. */
  activeProfileId(): Promise<string | null>
  lagHours(): Promise<number>
  events: Pick<EventHub, 'emit'>
  notify: AlertNotifier | null
  now: () => Date
  osOffsetMinutes?: () => number
}

export interface AlertService {
  rules(preset: string): Promise<PresetRules>
  saveRules(preset: string, rules: readonly AlertRule[]): Promise<PresetRules>
  backtest(profileId: string, preset: string, rule: AlertRule, signal: AbortSignal): Promise<BacktestView>
  /** Checks a preset's saved rules on a connection; new firings are kept, announced and notified. */
  check(profileId: string, preset: string, options: { signal: AbortSignal; now?: Date }): Promise<AlertCheckResult>
  /** What the scheduler calls: the preset's rules on the active connection. */
  checkPresetAlerts(presetName: string, options: { signal?: AbortSignal; now?: Date }): Promise<AlertCheckResult>
  fired(query: FiredQuery): ReturnType<FiredStore['list']>
  acknowledge: FiredStore['acknowledge']
  snooze: FiredStore['snooze']
  /** The preset was renamed: its rules follow it. */
  presetRenamed(name: string, newName: string): Promise<void>
  get(
    id: string,
  ): Promise<{ alert: Awaited<ReturnType<FiredStore['get']>>['view']; granularity: string; categories: string[]; series: AlertSeriesView; firedIndex: number }>
}

export function createAlertService(options: AlertServiceOptions): AlertService {
  const { rules, fired, source, now } = options
  const osOffset = options.osOffsetMinutes ?? (() => -now().getTimezoneOffset())

  async function keep(preset: string, checked: CheckedDefinition, firedAt: Date): Promise<void> {
    const kept: KeptAlert[] = []
    for (const entry of checked.judged) {
      if (entry.judged.firedCount === 0) continue
      const line = seriesView(entry)
      for (const at of firedPositions(entry.judged.fired)) {
        const from = Math.max(0, at - KEPT_BEFORE)
        const to = Math.min(checked.view.categories.length, at + KEPT_AFTER + 1)
        const slice = <T>(values: T[]) => values.slice(from, to)
        kept.push({
          id: randomUUID(),
          incident: JSON.stringify([preset, entry.rule.id, entry.series.key, checked.view.categories[at]]),
          preset,
          rule: entry.rule.id,
          metric: entry.rule.metric,
          direction: entry.rule.direction,
          series: entry.series.label,
          bucket: checked.view.categories[at] as string,
          value: entry.series.values[at] as number,
          baseline: entry.judged.baseline[at] as number,
          changePct: round(entry.judged.changePct[at] as number, 1),
          z: round(entry.judged.z[at] as number, 2),
          firedAt: firedAt.toISOString(),
          dataAsOf: checked.result.dataAsOf,
          snoozedUntil: null,
          acknowledged: false,
          granularity: checked.plan.granularity,
          categories: slice(checked.view.categories),
          line: {
            ...line,
            values: slice(line.values),
            baseline: slice(line.baseline),
            low: slice(line.low),
            high: slice(line.high),
            fired: slice(line.fired),
            firedCount: 1,
          },
          firedIndex: at - from,
        })
      }
    }
    if (kept.length === 0) return
    const added = await fired.add(kept)
    for (const alert of added) {
      const { view } = await fired.get(alert.id)
      options.events.emit('onAlertFired', view)
    }
    announce(added)
  }

  /** One notification per check, however many lines fired: fifty at once would bury the desktop. */
  function announce(added: readonly KeptAlert[]): void {
    const first = added[0]
    if (options.notify === null || first === undefined) return
    const more = added.length > 1 ? ` (and ${added.length - 1} more)` : ''
    options.notify({
      title: `Alert: ${first.preset}`,
      body: `${first.series}: ${alertSentence(first)} on ${first.bucket}${more}. Data as of ${formatDateTime(first.dataAsOf)}.`,
      onClick: () => options.events.emit('onOpenAlert', { id: first.id }),
    })
  }

  async function check(profileId: string, preset: string, { signal, now: at }: { signal: AbortSignal; now?: Date }): Promise<AlertCheckResult> {
    const stored = await presetOrMissing(preset)
    const { rules: saved } = await rules.read(stored.name)
    const when = at ?? now()
    const checked = await checkDefinition(source, {
      profileId,
      preset: stored.name,
      definition: stored.definition,
      rules: saved,
      now: when,
      lagHours: await options.lagHours(),
      osOffsetMinutes: osOffset(),
      signal,
    })
    await keep(stored.name, checked, now())
    return checked.result
  }

  // A preset deleted or renamed under its rules is a not_found with the preset store's own sentence.
  const presetOrMissing = (name: string): Promise<Preset> => options.presetOf(name)

  return {
    rules: async (preset) => rules.read((await presetOrMissing(preset)).name),
    saveRules: async (preset, list) => rules.save((await presetOrMissing(preset)).name, list),
    async backtest(profileId, preset, rule, signal) {
      const stored = await presetOrMissing(preset)
      const weeks = ALERT_LIMITS.backtestWeeks
      const checked = await checkDefinition(source, {
        profileId,
        preset: stored.name,
        definition: stored.definition,
        rules: [rule],
        now: now(),
        lagHours: await options.lagHours(),
        osOffsetMinutes: osOffset(),
        signal,
        judgeDays: weeks * 7,
      })
      const lines = checked.judged.map(seriesView)
      return {
        preset: stored.name,
        metric: rule.metric,
        granularity: checked.plan.granularity,
        timezone: checked.plan.offset,
        weeks,
        categories: checked.view.categories,
        lines,
        firedCount: lines.reduce((sum, line) => sum + line.firedCount, 0),
        dataAsOf: checked.result.dataAsOf,
        notes: [...checked.plan.notes, ...checked.view.notes, ...unjudgedNotes(checked.judged)],
      }
    },
    check,
    async checkPresetAlerts(presetName, { signal, now: at }) {
      const profileId = await options.activeProfileId()
      if (profileId === null)
        throw new AppError('validation', 'No connection is active, so the alerts of this preset could not be checked. Open the app and pick a connection.')
      return check(profileId, presetName, { signal: signal ?? new AbortController().signal, ...(at === undefined ? {} : { now: at }) })
    },
    fired: (query) => fired.list(query),
    presetRenamed: (name, newName) => rules.rename(name, newName),
    acknowledge: (id) => fired.acknowledge(id),
    snooze: (id, until) => fired.snooze(id, until),
    async get(id) {
      const { kept, view } = await fired.get(id)
      return { alert: view, granularity: kept.granularity, categories: kept.categories, series: kept.line, firedIndex: kept.firedIndex }
    },
  }
}
