/**
 * What one report may ask for. The contract's schema bounds are built from these, and
 * everything that trims or refuses (the paste reader, the metric picker, the audience panel,
 * the export dialog) reads them here, so a limit changes in one place.
 */
export const REPORT_LIMITS = {
  /** Metrics on one chart (one call each). */
  metrics: 8,
  /** Keys a chart breaks down by (`split_by`). */
  breakdownKeys: 5,
  /** Keys an audience count breaks down by. */
  audienceBreakdownKeys: 5,
  /** Chart lines besides the total. */
  chartLines: 50,
  filters: 50,
  metricConditions: 50,
  sortRules: 10,
  /** Key fields of one export. */
  exportKeys: 10,
  /** Top N categories of a category chart (the API's `limit`). */
  categoryLimit: { min: 1, max: 10_000 },
  /** A fixed timezone: whole hours from UTC (the platform has no named zones and no half hours). */
  utcOffsetHours: { min: -12, max: 12 },
  /** Records an audience count reads (`audience_rows_limit`). */
  audienceRowsLimit: { min: 10_000, max: 10_000_000 },
} as const
