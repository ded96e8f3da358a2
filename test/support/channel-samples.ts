import type { AlertRuleInput, ChannelInput, ChannelName, ReportDefinition } from '@contract'
import { singleSeriesChart } from './chart-results'

/** A complete report definition, as the builder sends it. */
export const sampleDefinition: ReportDefinition = {
  project: 'demo',
  report: 'supply',
  dates: { start: '-7d', end: 'yesterday' },
  timezone: { mode: 'fixed', offset: 1 },
  metrics: ['impressions', 'revenue'],
  granularity: 'auto',
  categoryLimit: 30,
  breakdown: ['country', 'device_type'],
  lines: { mode: 'top', count: 10, by: null, includeTotal: true },
  filters: [{ key: 'publisher', match: 'not begins with', values: ['1', '2'], caseInsensitive: true, searchNames: false }],
  filterLogic: '1',
  metricConditions: [{ metric: 'impressions', match: '>=', value: '1' }],
  metricConditionLogic: '',
  sort: [{ field: 'impressions', direction: 'DESC', byName: false }],
  comparison: 'previous_period',
  chart: { type: 'line', hidden: ['impressions|__total__'], showMarkers: true },
  audience: { source: null, rowsLimit: 1_000_000, breakdown: ['granularity_day'] },
}

/** A complete alert rule, every field given. */
export const sampleRule: AlertRuleInput = { id: 'drop-30', metric: 'impressions', direction: 'drop', minChangePct: 30, minZ: 3, minBaseline: 100, weeks: 4 }

/** A complete 1×1 PNG as base64, the smallest content `exports:saveChart` accepts as an image. */
export const ONE_PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGPQz3/7HwAE5wKLsJapbgAAAABJRU5ErkJggg=='

/**
 * One well-formed input per channel. Typed against the contract, so adding a channel without
 * a sample does not compile, and the malformed-input test covers every channel by construction.
 */
export const validSamples: { [C in ChannelName]: ChannelInput<C> } = {
  'app:info': {},
  'app:dismissNotice': { id: 'notice-1' },
  'app:about': {},
  'app:setTheme': { theme: 'dark' },
  'app:setLogLevel': { level: 'info' },
  'app:resultCache': {},
  'app:setResultCacheLimit': { megabytes: 500 },
  'app:alertLagHours': {},
  'app:setAlertLagHours': { hours: 6 },
  'app:openDataFolder': {},
  'app:openLogsFolder': {},
  'app:reportRendererError': { kind: 'error', message: 'TypeError: x is undefined', stack: 'TypeError: x is undefined\n    at app.js:1:1' },
  'profiles:list': {},
  'profiles:create': {
    name: 'Sample',
    baseUrl: 'https://workflow.example.com/v1',
    authUrl: 'https://auth.example.com',
    reportUrl: 'https://reports.example.com',
    serviceId: 'svc',
    reportServiceId: 'reports',
    auth: { method: 'password', username: 'user', password: 'secret' },
    sessionOnlySecret: false,
  },
  'profiles:update': {
    id: 'missing-profile',
    profile: {
      name: 'Sample',
      baseUrl: 'https://workflow.example.com/v1',
      authUrl: 'https://auth.example.com',
      reportUrl: 'https://reports.example.com',
      serviceId: 'svc',
      auth: { method: 'token', token: 'abc' },
    },
  },
  'profiles:duplicate': { id: 'missing-profile' },
  'profiles:delete': { id: 'missing-profile' },
  'profiles:test': { id: 'missing-profile', requestId: 'request-1' },
  'workspace:state': {},
  'workspace:activate': { profileId: 'missing-profile' },
  'requests:cancel': { requestId: 'request-1' },
  'entities:kinds': {},
  'entities:mirror': { profileId: 'missing-profile', kind: 'publishers', offset: 0, limit: 200 },
  'entities:sync': { profileId: 'missing-profile', kind: 'publishers', requestId: 'request-2' },
  'entities:get': { profileId: 'missing-profile', kind: 'publishers', id: 1 },
  'entities:create': { profileId: 'missing-profile', kind: 'brands', entity: { name: 'Acme', is_pmp_allowed: true, advertiser_domains: ['acme.example'] } },
  'entities:update': { profileId: 'missing-profile', kind: 'brands', id: 'b-1', original: { id: 1, name: 'A' }, changes: { name: 'B' }, force: false },
  'entities:delete': { profileId: 'missing-profile', kind: 'publishers', id: 1 },
  'entities:exportCsv': { profileId: 'missing-profile', kind: 'publishers', ids: [1, 'two'], columns: [{ key: 'name', title: 'Name' }] },
  'drafts:list': { profileId: 'missing-profile' },
  'drafts:save': { profileId: 'missing-profile', kind: 'brands', key: 'new', draft: { name: 'Draft' }, original: null },
  'drafts:discard': { profileId: 'missing-profile', kind: 'brands', key: 'new' },
  'reports:info': { profileId: 'missing-profile', project: 'demo', report: 'supply', refresh: false },
  'reports:known': { profileId: 'missing-profile' },
  'reports:resolveDates': { start: '-1m_first', end: '-1m_last', timezone: { mode: 'os' }, reportTimezone: 0 },
  'reports:run': { profileId: 'missing-profile', definition: sampleDefinition, preset: 'Weekly EU', requestId: 'request-3', pointBudget: 500 },
  'reports:audience': { profileId: 'missing-profile', definition: sampleDefinition, preset: null, requestId: 'request-4' },
  'reports:values': { profileId: 'missing-profile', definition: sampleDefinition, key: 'publisher', text: 'new', limit: 20, requestId: 'request-5' },
  'reports:request': { profileId: 'missing-profile', definition: sampleDefinition, kind: 'chart' },
  'requests:parse': {
    text: '{"project_name": "demo", "slicer_name": "supply"}',
    base: { metrics: ['impressions'], chart: { type: 'bar', hidden: [], showMarkers: false } },
  },
  'presets:list': {},
  'presets:get': { name: 'Weekly EU' },
  'presets:save': { name: 'Weekly EU', definition: sampleDefinition, description: 'Monday call', replace: false },
  'presets:rename': { name: 'Weekly EU', newName: 'Weekly EU revenue' },
  'presets:duplicate': { name: 'Weekly EU', newName: 'Weekly EU copy' },
  'presets:delete': { name: 'Missing preset' },
  'presets:restore': { name: 'Missing preset' },
  'presets:import': { replace: false },
  'presets:export': { names: ['Missing preset'] },
  'results:get': { profileId: 'missing-profile', definition: sampleDefinition, preset: 'Weekly EU', kind: 'chart' },
  'history:list': { profileId: 'missing-profile', search: 'supply', preset: 'Weekly EU', outcome: 'error', offset: 0, limit: 50 },
  'history:get': { id: 'missing-run' },
  'exports:start': {
    profileId: 'missing-profile',
    source: { kind: 'definition', definition: sampleDefinition },
    options: {
      format: 'csv',
      dataFields: ['impressions', 'revenue'],
      keys: ['country', 'device_type'],
      includeNames: true,
      includeTotal: false,
      sort: [{ field: 'revenue', direction: 'DESC', byName: false }],
      filterLogic: '1',
    },
  },
  'exports:cancel': { jobId: 'job-1' },
  'exports:list': {},
  'exports:open': { jobId: 'job-1' },
  'exports:reveal': { jobId: 'job-1' },
  'exports:preview': { jobId: 'job-1' },
  'exports:estimate': { profileId: 'missing-profile', source: { kind: 'preset', name: 'Monday revenue' }, options: { format: 'xlsx' }, requestId: 'request-6' },
  // A whole 1×1 PNG: the content is checked (signature, IHDR, IEND), so a huge or odd string in its place is refused.
  'exports:saveChart': { format: 'png', name: 'Weekly EU', content: ONE_PIXEL_PNG },
  'exports:savePivot': {
    format: 'xlsx',
    name: 'Weekly EU pivot',
    layout: {
      rows: ['country'],
      columns: [],
      values: [{ field: 'impressions', aggregate: 'sum' }],
      sort: { by: 'label', direction: 'asc' },
      top: null,
      subtotals: false,
      showChange: false,
    },
    result: singleSeriesChart({ values: [1, 2], ranAt: '2026-01-01T00:00:00.000Z', timezone: 0, durationMs: 1 }),
    breakdown: [],
    fields: [{ name: 'impressions', displayType: 'int', precision: 0 }],
  },
  'schedules:list': {},
  'schedules:save': {
    id: 'schedule-1',
    name: 'Monday revenue file',
    preset: 'Monday revenue',
    profileId: 'missing-profile',
    actions: { export: { format: 'csv', folderId: 'folder-1', fileNamePattern: '{preset} {start} to {end}' }, checkAlerts: true },
    cadence: { kind: 'weekdays', days: ['mon', 'thu'], at: '07:30' },
    timezone: 'report',
    enabled: true,
  },
  'schedules:delete': { id: 'schedule-1' },
  'schedules:runNow': { id: 'schedule-1' },
  'schedules:ledger': { scheduleId: 'schedule-1', search: 'revenue', outcome: 'failed', source: 'os', late: true, offset: 0, limit: 100 },
  'schedules:clearFailures': {},
  'schedules:chooseFolder': {},
  'schedules:installEntry': {},
  'schedules:removeEntry': {},
  'schedules:setKeepRunning': { keepRunning: true },
  'alerts:rules': { preset: 'Weekly EU' },
  'alerts:saveRules': { preset: 'Weekly EU', rules: [sampleRule] },
  'alerts:backtest': { preset: 'Weekly EU', profileId: 'missing-profile', rule: sampleRule, requestId: 'request-7' },
  'alerts:check': { preset: 'Weekly EU', profileId: 'missing-profile', requestId: 'request-8' },
  'alerts:fired': { preset: 'Weekly EU', state: 'new', offset: 0, limit: 50 },
  'alerts:acknowledge': { id: 'missing-alert' },
  'alerts:snooze': { id: 'missing-alert', until: '2026-11-27T09:00:00+01:00' },
  'alerts:get': { id: 'missing-alert' },
}

/**
 * Fields that take any JSON (entity bodies, drafts): a value of another type is still valid
 * there, so only their size is bounded and the wrong-type mutation does not apply.
 */
export const openJsonFields: Partial<Record<ChannelName, string[]>> = {
  'entities:create': ['entity'],
  'entities:update': ['original', 'changes'],
  'drafts:save': ['draft', 'original'],
}
