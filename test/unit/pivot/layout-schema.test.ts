import { describe, expect, expectTypeOf, it } from 'vitest'
import { pivotLayoutSchema, type PivotLayoutInput } from '@contract'
import { definitionHash } from '../../../main/services/results/result-key'
import type { PivotLayout } from '../../../common/pivot/types'
import { sampleDefinition } from '../../support/channel-samples'

const layout: PivotLayout = {
  rows: ['publisher'],
  columns: ['@time'],
  values: [{ field: 'impressions', aggregate: 'sum' }],
  sort: { by: 'change', value: 0, column: null, measure: 'percent', direction: 'desc' },
  top: 10,
  subtotals: true,
  showChange: true,
}

describe("the contract's pivot layout", () => {
  it('is the same shape as the one the model computes with', () => {
    expectTypeOf<PivotLayoutInput>().toEqualTypeOf<PivotLayout>()
    expect(pivotLayoutSchema.parse(layout)).toEqual(layout)
  })

  it('refuses what no pivot can be: no values, an unknown aggregate, a top of zero', () => {
    expect(pivotLayoutSchema.safeParse({ ...layout, values: [] }).success).toBe(false)
    expect(pivotLayoutSchema.safeParse({ ...layout, values: [{ field: 'imps', aggregate: 'median' }] }).success).toBe(false)
    expect(pivotLayoutSchema.safeParse({ ...layout, top: 0 }).success).toBe(false)
  })

  it('is part of the chart look: a preset that remembers a layout still finds the result kept without one', () => {
    const withPivot = { ...sampleDefinition, chart: { ...sampleDefinition.chart, pivot: layout } }
    expect(definitionHash(withPivot)).toBe(definitionHash(sampleDefinition))
  })
})
