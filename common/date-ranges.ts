import { canonicalDateToken, calendarOfDay, resolveDateToken } from './date-tokens'
import { formatDaySpan } from './date-format'

/**
 * Date ranges as a user names them: the presets (each a pair of the API's tokens, so a weekly
 * report stays relative), a pair of tokens named by what it means ("-14d" to "yesterday" is
 * "Last 14 days", whatever the spelling), and text typed or pasted into the date range control
 * read into a pair of tokens. What is stored (presets, schedules, board files, the command line)
 * stays the tokens; names and previews are made from them here.
 */

export interface DateRangeTokens {
  start: string
  end: string
}

export interface DateRangePreset {
  id: string
  label: string
  tokens: DateRangeTokens
}

// The ids and tokens of the first seven are the ones saved presets and boards already hold.
export const DATE_RANGE_PRESETS: readonly DateRangePreset[] = [
  { id: 'today', label: 'Today', tokens: { start: 'today', end: 'today' } },
  { id: 'yesterday', label: 'Yesterday', tokens: { start: 'yesterday', end: 'yesterday' } },
  { id: 'last-7-days', label: 'Last 7 days', tokens: { start: '-7d', end: '-1d' } },
  { id: 'last-14-days', label: 'Last 14 days', tokens: { start: '-14d', end: '-1d' } },
  { id: 'last-30-days', label: 'Last 30 days', tokens: { start: '-30d', end: '-1d' } },
  { id: 'last-90-days', label: 'Last 90 days', tokens: { start: '-90d', end: '-1d' } },
  { id: 'month-to-date', label: 'This month to date', tokens: { start: '-0m_first', end: 'today' } },
  { id: 'month-of-yesterday', label: 'Month of yesterday', tokens: { start: '-1d_m_first', end: 'yesterday' } },
  { id: 'last-month', label: 'Last month', tokens: { start: '-1m_first', end: '-1m_last' } },
  { id: 'last-3-months', label: 'Last 3 full months', tokens: { start: '-3m_first', end: '-1m_last' } },
]

const sameMeaning = (left: DateRangeTokens, right: DateRangeTokens): boolean =>
  canonicalDateToken(left.start) === canonicalDateToken(right.start) && canonicalDateToken(left.end) === canonicalDateToken(right.end)

/** The preset these tokens mean (any spelling: `-14days` to `yesterday` is Last 14 days), or null. */
export function datePresetOf(tokens: DateRangeTokens): DateRangePreset | null {
  return DATE_RANGE_PRESETS.find((preset) => sameMeaning(preset.tokens, tokens)) ?? null
}

export function datePresetTokens(id: string): DateRangeTokens | null {
  const preset = DATE_RANGE_PRESETS.find((candidate) => candidate.id === id)
  return preset ? { ...preset.tokens } : null
}

const DAYS_BACK = /^-(\d{1,6})d$/

/** What a range is called: its preset, "Last N days" for any N back to yesterday, else "Custom range". */
export function dateRangeName(tokens: DateRangeTokens): string {
  const preset = datePresetOf(tokens)
  if (preset) return preset.label
  const back = DAYS_BACK.exec(canonicalDateToken(tokens.start))
  const count = back ? Number(back[1]) : 0
  if (count > 1 && canonicalDateToken(tokens.end) === '-1d') return `Last ${count} days`
  return 'Custom range'
}

/** The days a pair of tokens stands for on `today` (a day number), or why it stands for none. */
export function resolveDateRange(tokens: DateRangeTokens, today: number): { start: number; end: number } | { error: string } {
  const start = resolveDateToken(tokens.start, today)
  if (typeof start !== 'number') return start
  const end = resolveDateToken(tokens.end, today)
  if (typeof end !== 'number') return end
  if (start > end) return { error: `"${tokens.start.trim()}" comes after "${tokens.end.trim()}": put the start first.` }
  return { start, end }
}

const DAY_MS = 86_400_000

/**
 * "23 Nov – 6 Dec" in the user's locale ("Nov 23 – Dec 6" in en-US), with the year when it is
 * not this one (common/date-format.ts, the one date format); `locale` is for tests, the
 * screens use the system's. Days are UTC day numbers, shown as the range's own calendar days.
 */
export function formatDayRange(start: number, end: number, today: number, locale?: string): string {
  const yearOf = (day: number): number => calendarOfDay(day).year
  const thisYear = yearOf(start) === yearOf(today) && yearOf(end) === yearOf(today)
  return formatDaySpan(new Date(start * DAY_MS), new Date(end * DAY_MS), !thisYear, locale === undefined ? {} : { locale })
}

/** "Last 14 days · 23 Nov – 6 Dec": a range's name and the days it stands for today. */
export function describeDateRange(tokens: DateRangeTokens, today: number, locale?: string): string {
  const range = resolveDateRange(tokens, today)
  const name = dateRangeName(tokens)
  return 'error' in range ? name : `${name} · ${formatDayRange(range.start, range.end, today, locale)}`
}

const SEPARATORS = /[\s"'`{}[\]()=:&,;/→…]+|\.{2,}|\s[-–—]\s|[–—]/g
const FILLER = new Set(['start_date', 'end_date', 'start', 'end', 'from', 'to', 'until', 'through', 'and', '-'])
const LAST_DAYS = /^(?:last|past)\s+(\d{1,6})\s+days?$/

/**
 * A range typed or pasted as text: a preset's name ("last 14 days"), one token ("-14d" is the
 * 14 days to yesterday, "2026-11-02" that one day, "-1m" from then to yesterday), two tokens in
 * any wrapping ("-14d to -1d", "2026-11-01 – 2026-11-30", `"start_date": "-14d", "end_date":
 * "yesterday"`), or a sentence saying what was not understood. The screens' minus (U+2212) reads
 * as the API's hyphen.
 */
export function readDateRangeText(text: string, today: number): { tokens: DateRangeTokens } | { error: string } {
  const typed = text.replaceAll('\u2212', '-').trim()
  if (typed === '') return { error: 'Type a range, such as -14d, "last 30 days" or 2026-11-01 to 2026-11-30.' }
  const phrase = typed.toLowerCase().replace(/\s+/g, ' ')
  const named = DATE_RANGE_PRESETS.find((preset) => preset.label.toLowerCase() === phrase)
  if (named) return { tokens: { ...named.tokens } }
  const lastDays = LAST_DAYS.exec(phrase)
  if (lastDays) return { tokens: { start: `-${Number(lastDays[1])}d`, end: '-1d' } }
  const words = ` ${typed} `
    .replace(SEPARATORS, ' ')
    .split(' ')
    .filter((word) => word !== '' && !FILLER.has(word.toLowerCase()))
  if (words.length === 0 || words.length > 2) {
    return { error: `"${typed}" is not one range: type a start and an end, such as -14d to -1d, or one token such as -14d.` }
  }
  for (const word of words) {
    const day = resolveDateToken(word, today)
    if (typeof day !== 'number') return day
  }
  const tokens = words.length === 2 ? { start: words[0] ?? '', end: words[1] ?? '' } : oneTokenRange(words[0] ?? '')
  const range = resolveDateRange(tokens, today)
  return 'error' in range ? range : { tokens }
}

/** One token as a range: a day is that day, "today" today, any other token runs to yesterday. */
function oneTokenRange(token: string): DateRangeTokens {
  const canonical = canonicalDateToken(token)
  if (token === 'today' || token === 'yesterday' || /^\d{4}-/.test(token)) return { start: token, end: token }
  if (canonical === '-0d') return { start: 'today', end: 'today' }
  return { start: token, end: DAYS_BACK.test(canonical) ? '-1d' : 'yesterday' }
}
