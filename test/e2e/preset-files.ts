/**
 * A preset file of the first format (version 0), as a teammate's git folder might hold one: the
 * app reads it and brings it up to date. The board specs drop a few into the presets folder.
 */
export const legacyPresetFile = (name: string, breakdown: string[], chart: string) => ({
  version: 0,
  name,
  savedAt: '2026-11-20T09:00:00.000Z',
  definition: {
    project: 'demo',
    report: 'supply',
    dates: { from: '-14d', to: 'yesterday' },
    timezone: null,
    metric: 'impressions',
    granularity: 'granularity_day',
    breakdown,
    lines: { top: 3, total: true },
    filters: [],
    chart,
  },
})
