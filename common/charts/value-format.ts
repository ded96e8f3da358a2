import type { ChartField } from './chart-shapes'
import { formatDateTime } from '../date-format'
import { withMinusSign } from '../format'
import { lazy } from '../lazy'

/**
 * One formatter per number of digits: `toLocaleString` with options builds a new formatter on
 * every call, and a table of 50 series or an axis of ticks calls it hundreds of times a paint.
 */
const fixedFormats = new Map<number, Intl.NumberFormat>()
function fixedFormat(digits: number): Intl.NumberFormat {
  let format = fixedFormats.get(digits)
  if (format === undefined) {
    format = new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
    fixedFormats.set(digits, format)
  }
  return format
}
const compactFormat = lazy(() => new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 }))

/** Numbers in the report's own terms: ints whole, floats and percents at the field's precision. */
export function formatValue(value: number | null | undefined, field: Pick<ChartField, 'displayType' | 'precision'> | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '—'
  const digits = field ? (field.displayType === 'int' ? 0 : Math.max(0, Math.min(6, field.precision))) : 2
  const text = withMinusSign(fixedFormat(digits).format(value))
  return field?.displayType === 'percent' ? `${text}%` : text
}

/**
 * Fields for a result shown without its report's description (a board's tile): a metric whose
 * every value is whole reads in whole numbers ("741,115", not "741,115.00", which also wrapped in
 * a tile's series table), any other at two decimals.
 */
export function fieldsFromValues(series: readonly { metric: string; values: readonly (number | null)[] }[]): ChartField[] {
  const whole = new Map<string, boolean>()
  for (const line of series) {
    let allWhole = whole.get(line.metric) ?? true
    for (const value of line.values) if (allWhole && value !== null && !Number.isInteger(value)) allWhole = false
    whole.set(line.metric, allWhole)
  }
  return [...whole].map(([name, allWhole]) => ({ name, displayType: allWhole ? 'int' : 'float', precision: allWhole ? 0 : 2 }))
}

/** Axis ticks: short (1.2M, 35k) so labels never crowd the plot. */
export function formatCompact(value: number, percent: boolean): string {
  const text = withMinusSign(compactFormat().format(value))
  return percent ? `${text}%` : text
}

/** `+12.3%`, `−4.0%`, `—` for no comparison. */
export function formatChange(change: number | null | undefined): string {
  if (change === null || change === undefined || !Number.isFinite(change)) return '—'
  const sign = change > 0 ? '+' : change < 0 ? '−' : '±'
  return `${sign}${Math.abs(change).toFixed(1)}%`
}

/** Change of `value` against `previous` in percent; null when either is missing or the base is zero. */
export function changeOf(value: number | null | undefined, previous: number | null | undefined): number | null {
  if (value === null || value === undefined || previous === null || previous === undefined || previous === 0) return null
  return ((value - previous) / Math.abs(previous)) * 100
}

export const formatCount = (value: number): string => withMinusSign(value.toLocaleString('en-US'))

/** "Mar 12, 2026, 10:42 AM" as every screen writes a moment (common/date-format.ts), and how long ago. */
export function formatMoment(iso: string, now: number): string {
  const then = new Date(iso)
  if (Number.isNaN(then.getTime())) return 'an unknown time'
  const seconds = Math.round((now - then.getTime()) / 1000)
  const absolute = formatDateTime(then)
  if (seconds < 45) return `${absolute} (just now)`
  const minutes = Math.round(seconds / 60)
  if (minutes < 60) return `${absolute} (${minutes} min ago)`
  const hours = Math.round(minutes / 60)
  if (hours < 48) return `${absolute} (${hours} h ago)`
  return `${absolute} (${Math.round(hours / 24)} days ago)`
}

/** Text safe to put into the chart tooltip's HTML. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)
}
