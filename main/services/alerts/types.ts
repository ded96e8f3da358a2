/**
 * What a check answers, in the shape the scheduler (and the command line) rely on: one entry
 * per line and bucket that fired, and up to when the data was complete.
 */
export interface AlertFiring {
  preset: string
  /** The rule's id. */
  rule: string
  /** The line as the chart names it. */
  series: string
  /** The platform's `__time__` text. */
  bucket: string
  value: number
  baseline: number
  /** Percent against the baseline: −60 is a 60% drop. */
  changePct: number
  z: number
}

export interface AlertCheckResult {
  firings: AlertFiring[]
  /** ISO 8601: buckets ending after this were inside the data lag and not judged. */
  dataAsOf: string
  /** Lines × rules judged. */
  checkedSeries: number
}
