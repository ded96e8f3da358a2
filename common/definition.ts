export const DEFAULT_TOP_LINES = 10
export const DEFAULT_CATEGORY_LIMIT = 30
export const DEFAULT_ROWS_LIMIT = 1_000_000

/**
 * What a new report definition holds besides its project, report and metrics: last 7 days up to
 * yesterday (`-1d`), the report's timezone, `auto` time axis, the top 10 lines and the total, a
 * line chart. The builder starts from these, and a paste fills with them what a request cannot
 * say. A new object each call: callers may change it.
 */
export function defaultDefinitionParts() {
  return {
    dates: { start: '-7d', end: '-1d' },
    timezone: { mode: 'report' as const },
    granularity: 'auto',
    categoryLimit: DEFAULT_CATEGORY_LIMIT,
    breakdown: [] as string[],
    lines: { mode: 'top' as const, count: DEFAULT_TOP_LINES, by: null as string | null, includeTotal: true },
    comparison: 'none' as const,
    chart: { type: 'line' as const, hidden: [] as string[], showMarkers: true },
    audience: { source: null as string | null, rowsLimit: DEFAULT_ROWS_LIMIT, breakdown: [] as string[] },
  }
}
