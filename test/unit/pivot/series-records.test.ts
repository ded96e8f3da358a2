import { describe, expect, it } from 'vitest'
import { computePivot } from '../../../common/pivot/model'
import { seriesRecords } from '../../../common/pivot/series-records'
import { defaultPivotLayout } from '../../../common/pivot/default-layout'
import { breakdownChart } from '../../support/chart-results'

describe("a report result's records for the pivot", () => {
  it('keys each line and day by the breakdown names, with the comparison at the same position, leaving out the platform Total', () => {
    const source = seriesRecords(breakdownChart(), ['publisher', 'country'])
    expect(source.fields).toEqual(['publisher', 'country', '@time'])
    expect(source.values).toEqual(['impressions'])
    expect(source.comparison).toBe(true)
    expect(source.records).toContainEqual({ keys: ['Alpha', 'US', '2026-11-25'], values: [20], compare: [5] })
    expect(source.records).toContainEqual({ keys: ['Alpha', 'FR', '2026-11-25'], values: [null], compare: [null] })
    expect(source.records.some((record) => record.values[0] === 999)).toBe(false)
  })

  it('opens on the breakdown down the side, the days across, the first metric, biggest first, change shown', () => {
    const source = seriesRecords(breakdownChart(), ['publisher', 'country'])
    const layout = defaultPivotLayout(source)
    expect(layout).toMatchObject({ rows: ['publisher', 'country'], columns: ['@time'], showChange: true, subtotals: true })
    const pivot = computePivot(source, layout)
    expect(pivot.rows.map((row) => row.path.join('/'))).toEqual(['Beta/US', 'Beta/Total', 'Alpha/US', 'Alpha/FR', 'Alpha/Total', 'Total'])
    // The grand total is the lines' sum (131), not the platform's Total series.
    expect(pivot.cell(pivot.rowCount - 1, pivot.columnCount - 3)).toBe(131)
  })
})
