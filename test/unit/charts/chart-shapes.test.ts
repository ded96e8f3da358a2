import { describe, expect, expectTypeOf, it } from 'vitest'
import { chartTypes, type ChartType, type DataFieldInfo, type TimeSeriesView } from '@contract'
import type { ChartField, ChartResult, ChartStyle } from '../../../common/charts/chart-shapes'

/**
 * common/charts reads results through shapes of its own (common/ imports nothing but itself):
 * these checks fail to compile, or fail, when the contract's result drifts away from them.
 */
describe('the chart shapes of common/ and the contract', () => {
  it('take the contract’s result, fields and chart types as they are', () => {
    expectTypeOf<TimeSeriesView>().toExtend<ChartResult>()
    expectTypeOf<DataFieldInfo>().toExtend<ChartField>()
    expectTypeOf<ChartType>().toEqualTypeOf<ChartStyle>()
    const styles: readonly ChartStyle[] = chartTypes
    expect(styles).toEqual(['line', 'area', 'stacked', 'bar'])
  })
})
