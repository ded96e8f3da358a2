import { suggestGranularity, TIME_GRANULARITIES, timeGranularityOf, timeKey, type TimeGranularity } from '../../../../common/granularity'
/**
 * Date ranges as the builder keeps them: the API's own relative tokens, so a weekly report stays
 * relative. Resolving tokens to dates is main's job (`reports.resolveDates`); this module only
 * names presets, converts calendar picks, and suggests a granularity from a range's length.
 */

export interface DateTokens {
  start: string
  end: string
}

export interface DatePreset {
  id: string
  label: string
  tokens: DateTokens
}

export const DATE_PRESETS: readonly DatePreset[] = [
  { id: 'yesterday', label: 'Yesterday', tokens: { start: 'yesterday', end: 'yesterday' } },
  { id: 'last-7-days', label: 'Last 7 days', tokens: { start: '-7d', end: '-1d' } },
  { id: 'last-30-days', label: 'Last 30 days', tokens: { start: '-30d', end: '-1d' } },
  { id: 'month-to-date', label: 'This month to date', tokens: { start: '-0m_first', end: 'today' } },
  { id: 'last-month', label: 'Last month', tokens: { start: '-1m_first', end: '-1m_last' } },
  { id: 'month-of-yesterday', label: 'Month of yesterday', tokens: { start: '-1d_m_first', end: 'yesterday' } },
  { id: 'last-3-months', label: 'Last 3 full months', tokens: { start: '-3m_first', end: '-1m_last' } },
]

export function presetTokens(id: string): DateTokens | null {
  const preset = DATE_PRESETS.find((candidate) => candidate.id === id)
  return preset ? { ...preset.tokens } : null
}

/** The preset these tokens are, or null for a custom range (typed tokens or calendar dates). */
export function presetOf(tokens: DateTokens): DatePreset | null {
  const start = tokens.start.trim()
  const end = tokens.end.trim()
  return DATE_PRESETS.find((preset) => preset.tokens.start === start && preset.tokens.end === end) ?? null
}

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
