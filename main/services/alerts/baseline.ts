import type { AlertRule } from '@contract'

/**
 * The seasonal baseline and the judgement of one line, as pure functions over the platform's
 * own bucket text (`__time__`), so the same code serves a check, a backtest and the bench.
 *
 * Buckets are aligned by their local calendar text, never by subtracting 7 × 24 hours from an
 * instant: "2026-11-02 10:00" looks back at "2026-10-26 10:00", "2026-10-19 10:00"… whatever
 * daylight-saving change lies between, so a weekday's 10 o'clock is always compared with the
 * same weekday's 10 o'clock on the report's calendar.
 */

export type AlertGranularity = 'granularity_hour' | 'granularity_day'

/** Robust standard deviation from the median absolute deviation (for normal data). */
const MAD_SCALE = 1.4826
/** Mean absolute deviation × √(π/2) estimates σ too; used when more than half the history is identical. */
const MEAN_AD_SCALE = 1.2533
/** When the history is flat, one percent of the median stands for its spread, so a real change still scores. */
const FLAT_SPREAD = 0.01
const DAY_MS = 86_400_000
const HOUR_MS = 3_600_000
/** The fewest same-weekday values a baseline is taken from. */
const MIN_HISTORY = 2

const DAY_TEXT = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}))?$/

/** A bucket's local calendar day (days since 1970-01-01) and minute of the day; null when it is not a day or hour bucket. */
export function parseBucket(text: string): { day: number; minute: number } | null {
  const match = DAY_TEXT.exec(text)
  if (match === null) return null
  const day = Math.floor(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / DAY_MS)
  const minute = match[4] === undefined ? 0 : Number(match[4]) * 60 + Number(match[5])
  return { day, minute }
}

/** When a bucket's data is complete: its local end, at the report's whole-hour offset, as an instant (ms). */
export function bucketEndMs(text: string, granularity: AlertGranularity, offsetHours: number): number | null {
  const parsed = parseBucket(text)
  if (parsed === null) return null
  const start = parsed.day * DAY_MS + parsed.minute * 60_000 - offsetHours * HOUR_MS
  return start + (granularity === 'granularity_hour' ? HOUR_MS : DAY_MS)
}

/**
 * For each bucket, the positions of the same weekday (and time of day) 1…weeks weeks before
 * it, found by local calendar text. Computed once per x-axis and shared by all its lines.
 */
export function seasonalIndex(categories: readonly string[], weeks: number): Int32Array {
  const position = new Map<string, number>()
  const keys: Array<{ day: number; minute: number } | null> = categories.map((text, index) => {
    const parsed = parseBucket(text)
    if (parsed !== null) position.set(`${parsed.day}:${parsed.minute}`, index)
    return parsed
  })
  const index = new Int32Array(categories.length * weeks).fill(-1)
  keys.forEach((key, at) => {
    if (key === null) return
    for (let week = 1; week <= weeks; week += 1) index[at * weeks + week - 1] = position.get(`${key.day - 7 * week}:${key.minute}`) ?? -1
  })
  return index
}

/** What a line's judgement gives per bucket (aligned with its categories); null where it was not judged. */
export interface JudgedLine {
  baseline: Array<number | null>
  low: Array<number | null>
  high: Array<number | null>
  changePct: Array<number | null>
  z: Array<number | null>
  fired: boolean[]
  firedCount: number
}

export interface JudgeWindow {
  /** First position judged (the history before it only feeds baselines). */
  from: number
  /** Positions at or after this are inside the data lag: drawn, never judged. */
  until: number
}

function median(sorted: readonly number[]): number {
  const middle = sorted.length >> 1
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
}

/** The baseline's spread as a standard deviation, never zero while the median is not (see the constants). */
function spreadOf(history: readonly number[], center: number): number {
  const deviations = history.map((value) => Math.abs(value - center)).sort((left, right) => left - right)
  const mad = MAD_SCALE * median(deviations)
  if (mad > 0) return mad
  const meanAd = (MEAN_AD_SCALE * deviations.reduce((sum, value) => sum + value, 0)) / deviations.length
  if (meanAd > 0) return meanAd
  return Math.abs(center) * FLAT_SPREAD || 1
}

/** Judges one line against its seasonal baseline, with the rule's direction, change, z-score and floor. */
export function judgeLine(values: ReadonlyArray<number | null>, index: Int32Array, rule: AlertRule, window: JudgeWindow): JudgedLine {
  const { weeks } = rule
  const length = values.length
  const result: JudgedLine = {
    baseline: new Array<number | null>(length).fill(null),
    low: new Array<number | null>(length).fill(null),
    high: new Array<number | null>(length).fill(null),
    changePct: new Array<number | null>(length).fill(null),
    z: new Array<number | null>(length).fill(null),
    fired: new Array<boolean>(length).fill(false),
    firedCount: 0,
  }
  const stride = index.length / Math.max(1, length)
  const history: number[] = []
  const last = Math.min(window.until, length)
  for (let at = Math.max(0, window.from); at < last; at += 1) {
    history.length = 0
    for (let week = 0; week < Math.min(weeks, stride); week += 1) {
      const before = index[at * stride + week] as number
      const value = before < 0 ? null : values[before]
      if (value !== null && value !== undefined) history.push(value)
    }
    if (history.length < Math.min(MIN_HISTORY, weeks)) continue
    history.sort((left, right) => left - right)
    const center = median(history)
    result.baseline[at] = center
    // A baseline under the floor (or at zero, where a percentage means nothing) is not judged.
    if (center < rule.minBaseline || center <= 0) continue
    const spread = spreadOf(history, center)
    const change = rule.minChangePct / 100
    if (rule.direction !== 'rise') result.low[at] = Math.min(center * (1 - change), center - rule.minZ * spread)
    if (rule.direction !== 'drop') result.high[at] = Math.max(center * (1 + change), center + rule.minZ * spread)
    const value = values[at]
    if (value === null || value === undefined) continue
    const changePct = ((value - center) / center) * 100
    const z = (value - center) / spread
    result.changePct[at] = changePct
    result.z[at] = z
    const dropped = rule.direction !== 'rise' && changePct <= -rule.minChangePct && z <= -rule.minZ
    const rose = rule.direction !== 'drop' && changePct >= rule.minChangePct && z >= rule.minZ
    if (dropped || rose) {
      result.fired[at] = true
      result.firedCount += 1
    }
  }
  return result
}

/**
 * The positions to judge: from the first bucket on or after `fromDay` (a local day number) up
 * to the first bucket whose data is not complete at `dataAsOfMs`.
 */
export function judgeWindow(
  categories: readonly string[],
  granularity: AlertGranularity,
  offsetHours: number,
  fromDay: number,
  dataAsOfMs: number,
): JudgeWindow {
  let from = categories.length
  let until = categories.length
  for (let at = 0; at < categories.length; at += 1) {
    const text = categories[at] as string
    const parsed = parseBucket(text)
    if (parsed === null) continue
    if (from === categories.length && parsed.day >= fromDay) from = at
    const end = bucketEndMs(text, granularity, offsetHours) as number
    if (end > dataAsOfMs) {
      until = at
      break
    }
  }
  return { from, until: Math.max(from, until) }
}
