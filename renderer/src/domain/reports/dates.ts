import { suggestGranularity, TIME_GRANULARITIES, timeGranularityOf, timeKey, type TimeGranularity } from '../../../../common/granularity'
/**
 * Date ranges as the builder keeps them: the API's own relative tokens, so a weekly report stays
 * relative. Resolving tokens to dates is main's job (`reports.resolveDates`); the presets and the
 * names of ranges are common/date-ranges.ts; this module converts calendar picks and formats.
 */

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/

/** A calendar pick (local midnight, as the date picker gives it) as an absolute token. */
export function dayToken(timestamp: number): string {
  const date = new Date(timestamp)
  const pad = (value: number): string => String(value).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}

/** The local-midnight timestamp the date picker shows for `YYYY-MM-DD`; null for other text. */
export function dayTimestamp(day: string | null | undefined): number | null {
  const match = ISO_DAY.exec(day ?? '')
  if (!match) return null
  return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])).getTime()
}

// One list and one `auto` rule for main and the renderer (common/granularity).
export { suggestGranularity, TIME_GRANULARITIES, timeGranularityOf, timeKey, type TimeGranularity }

/** `UTC+1`, `UTC−3`, `UTC` for whole-hour offsets. */
export function formatOffset(hours: number): string {
  if (hours === 0) return 'UTC'
  return `UTC${hours > 0 ? '+' : '−'}${Math.abs(hours)}`
}

export function formatRange(range: { start: string; end: string; days: number; timezone: number }): string {
  const span = range.start === range.end ? range.start : `${range.start} → ${range.end}`
  return `${span} · ${range.days} day${range.days === 1 ? '' : 's'} · ${formatOffset(range.timezone)}`
}
