import type { AlertRuleInput, ReportDefinition } from '@contract'

/** The demo preset and rule the alert tests check: day by day, every line of one breakdown, 40% either way, a floor of 20,000 impressions a day. */
export const demoPreset = (breakdown: string, count: number): ReportDefinition => ({
  project: 'demo',
  report: 'supply',
  dates: { start: '-7d', end: 'yesterday' },
  timezone: { mode: 'fixed', offset: 0 },
  metrics: ['impressions'],
  granularity: 'day',
  categoryLimit: 30,
  breakdown: [breakdown],
  lines: { mode: 'top', count, by: null, includeTotal: true },
  filters: [],
  filterLogic: '',
  metricConditions: [],
  metricConditionLogic: '',
  sort: [],
  comparison: 'none',
  chart: { type: 'line', hidden: [], showMarkers: false },
  audience: { source: null, rowsLimit: 1_000_000, breakdown: [] },
})
export const demoRule: AlertRuleInput = { id: 'volume', metric: 'impressions', direction: 'either', minChangePct: 40, minZ: 3, minBaseline: 20_000, weeks: 4 }
