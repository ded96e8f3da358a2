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
const WEEK_MS = 7 * DAY_MS
/** The fewest same-weekday values a baseline is taken from. */
const MIN_HISTORY = 2
/**
 * Past this magnitude a line is judged scaled down by SCALE_DOWN: the sums and differences of
 * a baseline (an even-count median of two 1e308, −1e308 against 1e308) stay inside a double's
 * range. Both are powers of two, so scaling is exact, and the change and z-score are ratios, the
 * same at any scale. Up to 2^960 every intermediate (±1,000 z × a spread of twice the largest
 * value, 1,000 × a change) stays under 2^1000.
 */
const LARGE = 2 ** 960
const SCALE_DOWN = 2 ** -64

const DAY_TEXT = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}))?$/

/** A bucket's local calendar day (days since 1970-01-01) and minute of the day; null when it is not a day or hour bucket. */
export function parseBucket(text: string): { day: number; minute: number } | null {
  const match = DAY_TEXT.exec(text)
  if (match === null) return null
  const day = Math.floor(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / DAY_MS)
  const minute = match[4] === undefined ? 0 : Number(match[4]) * 60 + Number(match[5])
  return { day, minute }
}

/** Each bucket's local start as if it were UTC (ms), NaN for text that is not a day or an hour: parsed once per x-axis. */
export function localStarts(categories: readonly string[]): Float64Array {
  const starts = new Float64Array(categories.length)
  for (let at = 0; at < categories.length; at += 1) {
    const parsed = parseBucket(categories[at] as string)
    starts[at] = parsed === null ? Number.NaN : parsed.day * DAY_MS + parsed.minute * 60_000
  }
  return starts
}

/** When a bucket's data is complete: its local end, at the report's whole-hour offset, as an instant (ms). */
export function bucketEndMs(text: string, granularity: AlertGranularity, offsetHours: number): number | null {
  const start = localStarts([text])[0] as number
  return Number.isNaN(start) ? null : start - offsetHours * HOUR_MS + (granularity === 'granularity_hour' ? HOUR_MS : DAY_MS)
}

/**
 * For each bucket, the positions of the same weekday (and time of day) 1…weeks weeks before
 * it, found by local calendar time. Computed once per x-axis and shared by all its lines.
 */
export function seasonalIndex(categories: readonly string[] | Float64Array, weeks: number): Int32Array {
  const starts = categories instanceof Float64Array ? categories : localStarts(categories)
  // Keyed by minute, not millisecond: minutes since 1970 are small integers, which a Map hashes
  // several times faster than the doubles milliseconds need.
  const position = new Map<number, number>()
  for (let at = 0; at < starts.length; at += 1) {
    const start = starts[at] as number
    if (!Number.isNaN(start)) position.set(start / 60_000, at)
  }
  const index = new Int32Array(starts.length * weeks).fill(-1)
  const weekMinutes = WEEK_MS / 60_000
  for (let at = 0; at < starts.length; at += 1) {
    const start = starts[at] as number
    if (Number.isNaN(start)) continue
    const minute = start / 60_000
    for (let week = 1; week <= weeks; week += 1) index[at * weeks + week - 1] = position.get(minute - week * weekMinutes) ?? -1
  }
  return index
}

/** What a line's judgement gives per bucket (aligned with its categories); NaN where it was not judged. Typed arrays: a check judges a million points. */
export interface JudgedLine {
  baseline: Float64Array
  low: Float64Array
  high: Float64Array
  changePct: Float64Array
  z: Float64Array
  fired: Uint8Array
  firedCount: number
  /** Buckets that had a baseline but whose change or z-score is past a double's range (1e308 against a millionth): not judged. */
  unjudged: number
}

export interface JudgeWindow {
  /** First position judged (the history before it only feeds baselines). */
  from: number
  /** Positions at or after this are inside the data lag: drawn, never judged. */
  until: number
}

/** Sorts the first `count` numbers in place: a baseline holds a handful, where insertion sort beats everything. */
function sortFew(values: Float64Array, count: number): void {
  for (let outer = 1; outer < count; outer += 1) {
    const value = values[outer] as number
    let inner = outer - 1
    while (inner >= 0 && (values[inner] as number) > value) {
      values[inner + 1] = values[inner] as number
      inner -= 1
    }
    values[inner + 1] = value
  }
}

function medianOfSorted(values: Float64Array, count: number): number {
  const middle = count >> 1
  return count % 2 === 1 ? (values[middle] as number) : ((values[middle - 1] as number) + (values[middle] as number)) / 2
}

/** The baseline's spread as a standard deviation, never zero while the median is not (see the constants). */
function spreadOf(history: Float64Array, count: number, center: number, scratch: Float64Array): number {
  let sum = 0
  for (let at = 0; at < count; at += 1) {
    const deviation = Math.abs((history[at] as number) - center)
    scratch[at] = deviation
    sum += deviation
  }
  sortFew(scratch, count)
  const mad = MAD_SCALE * medianOfSorted(scratch, count)
  if (mad > 0) return mad
  const meanAd = (MEAN_AD_SCALE * sum) / count
  if (meanAd > 0) return meanAd
  return Math.abs(center) * FLAT_SPREAD || 1
}

const finiteOrNaN = (value: number): number => (Number.isFinite(value) ? value : Number.NaN)

/** The five per-bucket arrays of a line as views of one buffer: one allocation and one fill instead of five (a check judges 500 lines). */
function judgedArrays(length: number): Pick<JudgedLine, 'baseline' | 'low' | 'high' | 'changePct' | 'z'> {
  const all = new Float64Array(length * 5).fill(Number.NaN)
  const part = (at: number) => all.subarray(at * length, (at + 1) * length)
  return { baseline: part(0), low: part(1), high: part(2), changePct: part(3), z: part(4) }
}

/** Judges one line against its seasonal baseline, with the rule's direction, change, z-score and floor. */
export function judgeLine(values: ReadonlyArray<number | null>, index: Int32Array, rule: AlertRule, window: JudgeWindow): JudgedLine {
  const length = values.length
  const result: JudgedLine = { ...judgedArrays(length), fired: new Uint8Array(length), firedCount: 0, unjudged: 0 }
  const stride = length === 0 ? 0 : index.length / length
  const weeks = Math.min(rule.weeks, stride)
  const history = new Float64Array(Math.max(1, weeks))
  const scratch = new Float64Array(Math.max(1, weeks))
  const least = Math.min(MIN_HISTORY, weeks)
  const change = rule.minChangePct / 100
  const watchDrop = rule.direction !== 'rise'
  const watchRise = rule.direction !== 'drop'
  const last = Math.min(window.until, length)
  // One numeric copy (NaN for gaps): reading a plain array of numbers and nulls in the inner loop costs several times more.
  const points = new Float64Array(length)
  let largest = 0
  for (let at = 0; at < length; at += 1) {
    const value = values[at] ?? Number.NaN
    points[at] = Number.isFinite(value) ? value : Number.NaN
    if (Number.isFinite(value) && Math.abs(value) > largest) largest = Math.abs(value)
  }
  // `unit` is what one of the platform's units is worth in `points`: 1, or SCALE_DOWN for a line near a double's limit.
  const unit = largest > LARGE ? SCALE_DOWN : 1
  if (unit !== 1) for (let at = 0; at < length; at += 1) points[at] = (points[at] as number) * unit
  for (let at = Math.max(0, window.from); at < last; at += 1) {
    let count = 0
    const row = at * stride
    for (let week = 0; week < weeks; week += 1) {
      const before = index[row + week] as number
      if (before < 0) continue
      const value = points[before] as number
      if (!Number.isNaN(value)) history[count++] = value
    }
    if (count < least || count === 0) continue
    sortFew(history, count)
    const center = medianOfSorted(history, count)
    result.baseline[at] = center / unit
    // A baseline under the floor (or at zero, where a percentage means nothing) is not judged.
    if (center / unit < rule.minBaseline || center <= 0) continue
    const spread = spreadOf(history, count, center, scratch)
    // A band past a double's range (scaled back) is not drawn: NaN, as where nothing was judged.
    if (watchDrop) result.low[at] = finiteOrNaN(Math.min(center * (1 - change), center - rule.minZ * spread) / unit)
    if (watchRise) result.high[at] = finiteOrNaN(Math.max(center * (1 + change), center + rule.minZ * spread) / unit)
    const value = points[at] as number
    if (Number.isNaN(value)) continue
    const changePct = ((value - center) / center) * 100
    const z = (value - center) / spread
    if (!Number.isFinite(changePct) || !Number.isFinite(z)) {
      result.unjudged += 1
      continue
    }
    result.changePct[at] = changePct
    result.z[at] = z
    if ((watchDrop && changePct <= -rule.minChangePct && z <= -rule.minZ) || (watchRise && changePct >= rule.minChangePct && z >= rule.minZ)) {
      result.fired[at] = 1
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
  categories: readonly string[] | Float64Array,
  granularity: AlertGranularity,
  offsetHours: number,
  fromDay: number,
  dataAsOfMs: number,
): JudgeWindow {
  const starts = categories instanceof Float64Array ? categories : localStarts(categories)
  const length = granularity === 'granularity_hour' ? HOUR_MS : DAY_MS
  let from = starts.length
  let until = starts.length
  for (let at = 0; at < starts.length; at += 1) {
    const start = starts[at] as number
    if (Number.isNaN(start)) continue
    if (from === starts.length && start >= fromDay * DAY_MS) from = at
    if (start - offsetHours * HOUR_MS + length > dataAsOfMs) {
      until = at
      break
    }
  }
  return { from, until: Math.max(from, until) }
}
