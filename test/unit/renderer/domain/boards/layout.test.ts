import { describe, expect, it } from 'vitest'
import type { TimeSeriesView } from '@contract'
import { freePlace, placeAfterKey, tileLabel } from '../../../../../renderer/src/domain/boards/layout'
import { tileNumber } from '../../../../../common/charts/tile-number'

describe('a tile on the grid', () => {
  it('moves a cell per arrow and stays on the grid', () => {
    const place = { x: 0, y: 1, w: 6, h: 4 }
    expect(placeAfterKey(place, 'ArrowRight', false)).toEqual({ x: 1, y: 1, w: 6, h: 4 })
    expect(placeAfterKey(place, 'ArrowLeft', false)).toEqual(place)
    expect(placeAfterKey(place, 'ArrowUp', false)).toEqual({ x: 0, y: 0, w: 6, h: 4 })
    expect(placeAfterKey({ x: 6, y: 0, w: 6, h: 4 }, 'ArrowRight', false)).toEqual({ x: 6, y: 0, w: 6, h: 4 })
  })

  it('resizes with Shift+arrows, at least one cell, never past the right edge', () => {
    expect(placeAfterKey({ x: 0, y: 0, w: 6, h: 4 }, 'ArrowRight', true)).toEqual({ x: 0, y: 0, w: 7, h: 4 })
    expect(placeAfterKey({ x: 0, y: 0, w: 6, h: 4 }, 'ArrowDown', true)).toEqual({ x: 0, y: 0, w: 6, h: 5 })
    expect(placeAfterKey({ x: 0, y: 0, w: 1, h: 1 }, 'ArrowLeft', true)).toEqual({ x: 0, y: 0, w: 1, h: 1 })
    expect(placeAfterKey({ x: 6, y: 0, w: 6, h: 4 }, 'ArrowRight', true)).toEqual({ x: 6, y: 0, w: 6, h: 4 })
  })

  it('is named for a screen reader by its title, column, row and size', () => {
    expect(tileLabel('Publishers — daily impressions', { x: 0, y: 1, w: 6, h: 4 })).toBe('Tile Publishers — daily impressions, column 1, row 2, 6 wide, 4 high')
  })

  it('goes, when new, to the first free place row by row', () => {
    expect(freePlace([])).toEqual({ x: 0, y: 0, w: 6, h: 4 })
    expect(freePlace([{ x: 0, y: 0, w: 6, h: 4 }])).toEqual({ x: 6, y: 0, w: 6, h: 4 })
    expect(
      freePlace([
        { x: 0, y: 0, w: 6, h: 4 },
        { x: 6, y: 0, w: 6, h: 4 },
      ]),
    ).toEqual({ x: 0, y: 4, w: 6, h: 4 })
  })
})

describe('a single number with its change', () => {
  const result = (values: Array<number | null>, total: number | null, comparison: boolean, change: number | null = null): TimeSeriesView =>
    ({
      comparisonRange: comparison ? { start: 'a', end: 'b', timezone: 0, days: 7 } : null,
      series: [
        {
          key: 'imps|__total__',
          metric: 'imps',
          line: '__total__',
          label: 'Total',
          role: 'total',
          values,
          stats: { total, average: null, min: null, max: null, change, points: values.length },
        },
      ],
    }) as unknown as TimeSeriesView

  it('is the total, against the comparison period when there is one', () => {
    expect(tileNumber(result([1, 2, 3], 6, true, 12.5))).toEqual({ label: 'Total', metric: 'imps', value: 6, change: 12.5, against: 'comparison' })
  })

  it('else compares the last bucket with the one before', () => {
    expect(tileNumber(result([100, 200, 150], 450, false))).toEqual({ label: 'Total', metric: 'imps', value: 450, change: -25, against: 'previous bucket' })
    expect(tileNumber(result([5], null, false))).toEqual({ label: 'Total', metric: 'imps', value: 5, change: null, against: null })
  })
})
