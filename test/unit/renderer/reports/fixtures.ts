import type { DataFieldInfo, KeyFieldInfo, ReportInfoView, Series, TimeSeriesView } from '@contract'

const key = (name: string, extra: Partial<KeyFieldInfo> = {}): KeyFieldInfo => ({
  name,
  description: name,
  type: 'text',
  mapping: null,
  segmented: false,
  group: null,
  annotation: '',
  isTime: false,
  ...extra,
})
const metric = (name: string, extra: Partial<DataFieldInfo> = {}): DataFieldInfo => ({
  name,
  description: name,
  displayType: 'int',
  precision: 0,
  pattern: null,
  showPercents: 'never',
  optional: false,
  formula: null,
  formulaDescription: null,
  access: null,
  annotation: '',
  additive: true,
  ...extra,
})

/** A report description shaped like the demo's `supply`. */
export const info: ReportInfoView = {
  project: 'demo',
  report: 'supply',
  timezone: 0,
  supportsTimezone: true,
  firstDate: '2025-01-01',
  lastDate: '2026-02-04',
  keyFields: [
    key('granularity_hour', { isTime: true }),
    key('granularity_day', { isTime: true }),
    key('country', { mapping: 'country_name' }),
    key('page_url', { segmented: true }),
  ],
  dataFields: [
    metric('bids', { optional: true }),
    metric('impressions'),
    metric('revenue', { displayType: 'float', precision: 2 }),
    metric('ctr', { displayType: 'percent', precision: 2, optional: true, formula: 'clicks / impressions * 100', additive: false }),
  ],
  audienceSources: [{ name: 'users', description: 'Unique users', annotation: '' }],
  annotation: null,
  fetchedAt: '2026-02-05T10:00:00.000Z',
  offlineReason: null,
}

const stats = (values: (number | null)[], change: number | null = null): Series['stats'] => {
  const present = values.filter((value): value is number => value !== null)
  const total = present.reduce((sum, value) => sum + value, 0)
  return { total, average: present.length ? total / present.length : null, min: Math.min(...present), max: Math.max(...present), change, points: values.length }
}
const series = (keyText: string, role: Series['role'], label: string, values: (number | null)[], metricName = 'impressions'): Series => ({
  key: keyText,
  metric: metricName,
  line: keyText.split('|')[1] ?? '',
  label,
  role,
  values,
  stats: stats(values),
})

/** Two countries and Total over three days, compared with the period before. */
export const result: TimeSeriesView = {
  ranAt: '2026-02-05T10:01:00.000Z',
  durationMs: 120,
  range: { start: '2026-02-01', end: '2026-02-03', timezone: 0, days: 3 },
  comparisonRange: { start: '2026-01-29', end: '2026-01-31', timezone: 0, days: 3 },
  granularity: 'granularity_day',
  categories: ['2026-02-01', '2026-02-02', '2026-02-03'],
  comparisonCategories: ['2026-01-29', '2026-01-30', '2026-01-31'],
  series: [
    series('impressions|FR', 'line', 'France', [10, null, 30]),
    series('impressions|DE', 'line', 'Germany <b>', [50, 60, 70]),
    series('impressions|__total__', 'total', 'Total', [60, 60, 100]),
    series('impressions|FR|compare', 'comparison', 'France (previous period)', [5, 20, 60]),
  ],
  markers: [{ id: 1, date: '2026-02-02', message: 'Floor prices <raised>', author: 'Jane', created: '', edited: '' }],
  sourcePoints: 3,
  reduced: false,
  notes: [],
}
