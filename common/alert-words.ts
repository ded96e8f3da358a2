/**
 * A fired alert's change as a sentence, shared by the Alerts screen and main's desktop
 * notification (issue 39): "Impressions fell 54% below the usual Monday (24,976)".
 */
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']

/** "impressions" → "Impressions", "ad_requests" → "Ad requests". */
export function metricInWords(metric: string): string {
  const words = metric.replace(/[_.]+/g, ' ').trim()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/**
 * "the usual Monday", "the usual Monday at 14:00": the bucket's weekday read from its own
 * calendar text (`__time__` in the report's offset), never through the browser's timezone.
 */
export function usualOf(bucket: string): string {
  const found = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}))?/.exec(bucket)
  if (found === null) return 'the usual'
  const [, year, month, day, hour, minute] = found
  const weekday = WEEKDAYS[new Date(Date.UTC(Number(year), Number(month) - 1, Number(day))).getUTCDay()] ?? ''
  return hour === undefined ? `the usual ${weekday}` : `the usual ${weekday} at ${hour}:${minute}`
}

const percent = (value: number): string => `${Math.abs(value) >= 10 ? Math.round(Math.abs(value)) : Math.abs(value).toFixed(1)}%`

/** "Impressions fell 54% below the usual Monday (24,976)". */
export function alertSentence(alert: { metric: string; changePct: number; baseline: number; bucket: string }): string {
  const way = alert.changePct < 0 ? 'fell' : 'rose'
  const side = alert.changePct < 0 ? 'below' : 'above'
  const usual = Math.round(alert.baseline).toLocaleString('en-US')
  return `${metricInWords(alert.metric)} ${way} ${percent(alert.changePct)} ${side} ${usualOf(alert.bucket)} (${usual})`
}
