import { describe, expect, it } from 'vitest'
import { planExport } from '../../../main/services/exports/export-plan'
import { clock, definition, infoView } from '../reports/fixtures'

/** Issue 39, item 6: a daily chart's export has its date column, and headers read as the screens name them. */
describe("an export's columns", () => {
  const daily = definition({ granularity: 'granularity_day', breakdown: ['publisher'] })

  it('a time series is exported with its date column by default, after the breakdown', () => {
    expect(planExport(daily, infoView, { format: 'csv' }, clock).keys).toEqual(['publisher', 'granularity_day'])
    expect(planExport(definition({ granularity: 'auto', breakdown: ['country'] }), infoView, { format: 'csv' }, clock).keys).toEqual([
      'country',
      'granularity_day',
    ])
    // A category chart has no time: its breakdown (or its key) as before.
    expect(planExport(definition({ granularity: 'country', breakdown: ['publisher'] }), infoView, { format: 'csv' }, clock).keys).toEqual(['publisher'])
  })

  it('headers read as the screens name them: "Publisher", "Publisher name", "Day", "Impressions"', () => {
    const plan = planExport(daily, infoView, { format: 'csv' }, clock)
    expect(plan.columns.labels).toEqual({
      publisher: 'Publisher',
      'publisher Name': 'Publisher name',
      granularity_day: 'Day',
      impressions: 'Impressions',
    })
    expect(plan.columns.dates).toEqual({ granularity_day: 'day' })
  })

  it('keeps the API names when asked, dates still typed', () => {
    const plan = planExport(daily, infoView, { format: 'xlsx', apiColumnNames: true }, clock)
    expect(plan.columns.labels).toBeNull()
    expect(plan.columns.dates).toEqual({ granularity_day: 'day' })
  })
})
