import { describe, expect, it } from 'vitest'
import { planExport } from '../../../main/services/exports/export-plan'
import { clock, definition, infoView } from '../reports/fixtures'

/**
 * The keys an export is split by are decided here alone: the estimate (`exports:estimate`)
 * answers them and the Export… dialog shows that answer instead of repeating this rule.
 */
describe('the keys an export is split by', () => {
  const keysOf = (change: Parameters<typeof definition>[0], keys?: string[]) =>
    planExport(definition(change), infoView, { format: 'csv', ...(keys ? { keys } : {}) }, clock).keys

  it('are the options’ own, else the breakdown (and a time series’ time key after it)', () => {
    expect(keysOf({ breakdown: ['country'] }, ['publisher', 'page_url'])).toEqual(['publisher', 'page_url'])
    expect(keysOf({ breakdown: ['country', 'publisher'] })).toEqual(['country', 'publisher', 'granularity_day'])
    expect(keysOf({ breakdown: ['country', 'publisher'], granularity: 'page_url' })).toEqual(['country', 'publisher'])
  })

  it('else the granularity as a key, `auto` chosen from the range’s days', () => {
    expect(keysOf({ granularity: 'week' })).toEqual(['granularity_week'])
    expect(keysOf({ granularity: 'country' })).toEqual(['country'])
    expect(keysOf({ granularity: 'auto', dates: { start: '2024-06-13', end: '2024-06-14' } })).toEqual(['granularity_hour'])
    expect(keysOf({ granularity: 'auto', dates: { start: '-7d', end: 'yesterday' } })).toEqual(['granularity_day'])
    expect(keysOf({ granularity: 'auto', dates: { start: '2024-01-01', end: '2024-06-14' } })).toEqual(['granularity_week'])
    expect(keysOf({ granularity: 'auto', dates: { start: '2023-01-01', end: '2024-06-14' } })).toEqual(['granularity_month'])
  })
})
