import { describe, expect, it } from 'vitest'
import { reduceToBudget, reduceView } from '../../../main/services/reports/reducer'

const categories = (count: number): string[] => Array.from({ length: count }, (_, index) => `c${index}`)
const wave = (count: number, phase = 0): number[] => Array.from({ length: count }, (_, index) => Math.round(100 + 10 * Math.sin(index / 50 + phase)))

describe('min/max reduction', () => {
  it('leaves series within the budget untouched', () => {
    const input = { labels: [categories(100)], series: [wave(100)] }
    const result = reduceToBudget(input, 100)
    expect(result.reduced).toBe(false)
    expect(result.labels[0]).toEqual(input.labels[0])
    expect(result.series[0]).toEqual(input.series[0])
  })

  it('never returns more points than the budget, for any length', () => {
    for (const [length, budget] of [
      [101, 100],
      [2_001, 2_000],
      [10_000, 2_000],
      [10_000, 51],
      [7_777, 333],
    ] as const) {
      const result = reduceToBudget({ labels: [categories(length)], series: [wave(length), wave(length, 1)] }, budget)
      expect(result.reduced).toBe(true)
      expect(result.labels[0]?.length).toBeLessThanOrEqual(budget)
      for (const series of result.series) expect(series.length).toBe(result.labels[0]?.length)
    }
  })

  it('keeps a one-point spike and a one-point dip', () => {
    const values: Array<number | null> = wave(10_000)
    values[4_321] = 1_000_000
    values[8_765] = -50
    const result = reduceToBudget({ labels: [categories(10_000)], series: [values] }, 2_000)
    expect(Math.max(...(result.series[0] as number[]))).toBe(1_000_000)
    expect(Math.min(...(result.series[0] as number[]))).toBe(-50)
  })

  it('keeps the min and the max of each bucket in the order they occur', () => {
    // Buckets of 5: [1, 9, 5, 5, 5] rises then falls; [5, 5, 0, 5, 7] dips then rises.
    const values = [1, 9, 5, 5, 5, 5, 5, 0, 5, 7]
    const result = reduceToBudget({ labels: [categories(10)], series: [values] }, 4)
    expect(result.series[0]).toEqual([1, 9, 0, 7])
    const falling = reduceToBudget({ labels: [categories(10)], series: [[9, 5, 5, 5, 1, 7, 0, 5, 5, 5]] }, 4)
    expect(falling.series[0]).toEqual([9, 1, 7, 0])
  })

  it('keeps every series on the same categories: each bucket names its first and last', () => {
    const labels = categories(10)
    const comparison = labels.map((label) => `previous ${label}`)
    const result = reduceToBudget({ labels: [labels, comparison], series: [wave(10), wave(10, 2)] }, 4)
    expect(result.labels).toEqual([
      ['c0', 'c4', 'c5', 'c9'],
      ['previous c0', 'previous c4', 'previous c5', 'previous c9'],
    ])
  })

  it('keeps a bucket without values as a gap, and reads around nulls inside a bucket', () => {
    const values: Array<number | null> = [null, null, null, null, null, 3, null, 8, null, 1]
    const result = reduceToBudget({ labels: [categories(10)], series: [values] }, 4)
    expect(result.series[0]).toEqual([null, null, 8, 1])
    const allNull = reduceToBudget({ labels: [categories(10)], series: [Array.from({ length: 10 }, () => null)] }, 4)
    expect(allNull.series[0]).toEqual([null, null, null, null])
  })

  it('reduces a whole chart result together: comparison categories aligned, source points and stats kept', () => {
    const stats = { total: 1, average: 1, min: 1, max: 1, change: null, points: 5_000 }
    const line = (key: string, values: number[]) => ({ key, metric: 'm', line: key, label: key, role: 'line' as const, values, stats })
    const view = {
      categories: categories(5_000),
      comparisonCategories: categories(5_000).map((category) => `before ${category}`),
      series: [line('a', wave(5_000)), line('b', wave(5_000, 1))],
    }
    const reduced = reduceView(view, 1_000)
    expect(reduced).toMatchObject({ reduced: true, sourcePoints: 5_000 })
    expect(reduced.categories).toHaveLength(1_000)
    expect(reduced.comparisonCategories).toEqual(reduced.categories.map((category) => `before ${category}`))
    expect(reduced.series.map((series) => [series.key, series.values.length, series.stats])).toEqual([
      ['a', 1_000, stats],
      ['b', 1_000, stats],
    ])
    expect(reduceView(view, 10_000)).toMatchObject({ reduced: false, sourcePoints: 5_000, categories: view.categories })
  })
})
