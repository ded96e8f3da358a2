/** The platform's time keys, finest first: `granularity_hour` … `granularity_year`. */
export type TimeGranularity = 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year'
export const TIME_GRANULARITIES: readonly TimeGranularity[] = ['hour', 'day', 'week', 'month', 'quarter', 'year']

/** `day` → `granularity_day`, the key field's name on the platform. */
export function timeKey(granularity: TimeGranularity): string {
  return `granularity_${granularity}`
}

/**
 * A granularity as the contract spells it: the short time forms the spec's example uses
 * (`day`, any case) become their key (`granularity_day`); a key, `auto` and key fields stay as they are.
 */
export function fullGranularity(value: string): string {
  const short = TIME_GRANULARITIES.find((granularity) => granularity === value.toLowerCase())
  return short === undefined ? value : timeKey(short)
}

/** `granularity_day` → `day`; null for anything that is not a time key. */
export function timeGranularityOf(key: string): TimeGranularity | null {
  const name = key.startsWith('granularity_') ? key.slice('granularity_'.length) : ''
  return TIME_GRANULARITIES.find((granularity) => granularity === name) ?? null
}

/** What `auto` picks for a range of `days`: hours up to 3 days, days up to 90, weeks up to a year, then months. */
export function suggestGranularity(days: number): TimeGranularity {
  if (days <= 3) return 'hour'
  if (days <= 90) return 'day'
  if (days <= 366) return 'week'
  return 'month'
}
