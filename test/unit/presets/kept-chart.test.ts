import { describe, expect, it } from 'vitest'
import type { TimeSeriesView } from '@contract'
import { reduceToBudget } from '../../../main/services/reports/reducer'
import { DEFAULT_POINT_BUDGET } from '../../../main/services/reports/runner'
import { reduceKeptChart } from '../../../main/services/results/kept-chart'

/** A kept chart of `lines` series × `points` values, with a comparison's categories when asked. */
function kept(lines: number, points: number, comparison = false): TimeSeriesView {
  const categories = Array.from({ length: points }, (_, index) => `2026-01-01 ${String(index).padStart(5, '0')}`)
  return {
    ranAt: '2026-01-05T08:00:00.000Z',
    durationMs: 40,
    range: { start: '2026-01-01', end: '2026-12-31', timezone: 0, days: 365 },
    comparisonRange: null,
    granularity: 'granularity_hour',
    categories,
    comparisonCategories: comparison ? categories.map((category) => `prev ${category}`) : [],
    series: Array.from({ length: lines }, (_, line) => {
      // One spike per line, at a different place: reduction must keep it.
      const values = Array.from({ length: points }, (_, index) => (index === 1_000 + line * 37 ? 1_000_000 : (index * (line + 3)) % 101))
      return {
        key: `imps|${line}`,
        metric: 'imps',
        line: String(line),
        label: `Line ${line}`,
        role: 'line' as const,
        values,
        stats: { total: 1, average: 1, min: 0, max: 1_000_000, change: null, points },
      }
    }),
    markers: [],
    sourcePoints: points,
    reduced: false,
    notes: ['kept note'],
  }
}

describe('a kept chart on its way to the page', () => {
  it('is cut to the budget exactly as a live run cuts its series, spikes kept, the source count and stats untouched', () => {
    const view = kept(3, 10_000)
    const reduced = reduceKeptChart(view, 1_800)
    const expected = reduceToBudget({ labels: [view.categories], series: view.series.map((entry) => entry.values) }, 1_800)
    expect(reduced.categories).toEqual(expected.labels[0])
    expect(reduced.series.map((entry) => entry.values)).toEqual(expected.series)
    expect(reduced.categories).toHaveLength(1_800)
    expect(reduced.series.every((entry) => entry.values.includes(1_000_000))).toBe(true)
    expect(reduced.reduced).toBe(true)
    expect(reduced.sourcePoints).toBe(10_000)
    expect(reduced.series.map((entry) => entry.stats)).toEqual(view.series.map((entry) => entry.stats))
    expect(reduced.notes).toEqual(['kept note'])
  })

  it("takes the run's default budget when the page names none", () => {
    expect(reduceKeptChart(kept(1, 10_000)).categories).toHaveLength(DEFAULT_POINT_BUDGET)
  })

  it("cuts the comparison's categories alongside, so they stay aligned", () => {
    const reduced = reduceKeptChart(kept(2, 5_000, true), 1_000)
    expect(reduced.comparisonCategories).toEqual(reduced.categories.map((category) => `prev ${category}`))
  })

  it('leaves a chart already within the budget as it is (the same object: nothing is copied)', () => {
    const view = kept(2, 1_500)
    expect(reduceKeptChart(view, 2_000)).toBe(view)
  })
})
