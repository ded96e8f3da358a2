import { describe, expect, it } from 'vitest'
import { BAND_SERIES, bandDescription, bandParts, buildBandOption, firedPoints } from '../../../../../renderer/src/domain/alerts/bandChart'

const series = {
  label: 'Publisher A',
  values: [100, 98, null, 40],
  baseline: [100, 100, 100, 100],
  low: [70, 70, 70, null],
  high: [130, 130, 130, 130],
  fired: [false, false, false, true],
}

describe('the baseline band chart', () => {
  it('draws the band as low plus a stacked width, a gap where either end is missing', () => {
    expect(bandParts(series.low, series.high)).toEqual({ base: [70, 70, 70, null], width: [60, 60, 60, null] })
  })

  it('marks only buckets that fired and have a value', () => {
    expect(firedPoints(series)).toEqual([[3, 40]])
    expect(firedPoints({ values: [null], fired: [true] })).toEqual([])
  })

  it('builds the band, the baseline, the line and the markers; the fired bucket is larger with a marked line', () => {
    const option = buildBandOption({ categories: ['a', 'b', 'c', 'd'], series, color: '#2f6fed', dark: false, focusIndex: 3, lagFromIndex: 4 })
    const drawn = option.series as Array<{ name: string; data: unknown[]; stack?: string; markLine?: { data: unknown[] } }>
    expect(drawn.map((entry) => entry.name)).toEqual([BAND_SERIES.low, BAND_SERIES.width, BAND_SERIES.baseline, BAND_SERIES.value, BAND_SERIES.fired])
    expect(drawn[0]?.stack).toBe(drawn[1]?.stack)
    expect(drawn[4]?.data).toEqual([{ value: [3, 40], symbolSize: 14 }])
    // The lag line is left out when it falls after the last bucket.
    expect(drawn[3]?.markLine?.data).toHaveLength(1)
  })

  it('says what it draws', () => {
    expect(bandDescription(series, 4)).toBe('Publisher A over 4 buckets with its baseline band; the rule fired 1 time.')
  })
})
