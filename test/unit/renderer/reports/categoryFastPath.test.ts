import { describe, expect, it } from 'vitest'
import { init, use, type EChartsType } from 'echarts/core'
import { BarChart, LineChart } from 'echarts/charts'
import { GridComponent } from 'echarts/components'
import { SVGRenderer } from 'echarts/renderers'
import type Cartesian2D from 'echarts/lib/coord/cartesian/Cartesian2D.js'
import { installCategoryFastPath } from '../../../../renderer/src/components/reports/categoryFastPath'

use([LineChart, BarChart, GridComponent, SVGRenderer])
installCategoryFastPath()

type Internal = { _transform: number[] | null }
const categories = Array.from({ length: 97 }, (_unused, index) => `2026-01-01 ${String(index).padStart(2, '0')}`)
const values = categories.map((_category, index) => Math.round(1_000 + 800 * Math.sin(index / 5)))

function chart(type: 'line' | 'bar', boundaryGap: boolean, data = categories, points = values): { instance: EChartsType; grid: Cartesian2D } {
  // ECharts' server-side mode: no DOM or canvas needed to lay a chart out.
  const instance = init(null, null, { renderer: 'svg', ssr: true, width: 640, height: 380 })
  instance.setOption({
    animation: false,
    xAxis: { type: 'category', data, boundaryGap },
    yAxis: { type: 'value' },
    series: [{ type, data: points }],
  })
  const model = (instance as unknown as { getModel(): { getComponent(type: string): { coordinateSystem: { getCartesians(): Cartesian2D[] } } } }).getModel()
  const [grid] = model.getComponent('grid').coordinateSystem.getCartesians()
  if (!grid) throw new Error('no grid')
  return { instance, grid }
}

/** ECharts' own path from a category index and a value to pixels, without any transform. */
function slowPoint(grid: Cartesian2D, index: number, value: number): number[] {
  const x = grid.getAxis('x')
  const y = grid.getAxis('y')
  return [x.toGlobalCoord(x.dataToCoord(index)), y.toGlobalCoord(y.dataToCoord(value))]
}

describe('the category axis fast path', () => {
  it.each([
    ['line', false],
    ['bar', true],
  ] as const)('%s chart: every category and value lands on the pixel ECharts computes itself', (type, boundaryGap) => {
    const { instance, grid } = chart(type, boundaryGap)
    expect((grid as unknown as Internal)._transform).not.toBeNull()
    categories.forEach((_category, index) => {
      const [fastX = NaN, fastY = NaN] = grid.dataToPoint([index, values[index] ?? 0])
      const [slowX = NaN, slowY = NaN] = slowPoint(grid, index, values[index] ?? 0)
      expect(fastX).toBeCloseTo(slowX, 6)
      expect(fastY).toBeCloseTo(slowY, 6)
    })
    // A category named by its text (a marker) and the way back from pixels stay on ECharts' own path.
    expect(grid.dataToPoint([categories[10] ?? '', 0])).toEqual(slowPoint(grid, 10, 0))
    expect(grid.pointToData(slowPoint(grid, 10, 500))[0]).toBe(10)
    instance.dispose()
  })

  it('keeps the slow path when the mapping is not linear, or there is one category', () => {
    const curved = {
      _transform: null as number[] | null,
      calcAffineTransform(): void {},
      getAxis: (dim: 'x' | 'y') => ({ scale: dim === 'x' ? { type: 'ordinal', getExtent: () => [0, 10] } : { type: 'interval', getExtent: () => [0, 100] } }),
      dataToPoint: ([x = 0, y = 0]: number[]) => [x * x, 300 - y],
    }
    installCategoryFastPath(curved as unknown as Cartesian2D)
    curved.calcAffineTransform()
    expect(curved._transform).toBeNull()
    const { instance, grid } = chart('line', false, ['only'], [5])
    expect((grid as unknown as Internal)._transform).toBeNull()
    instance.dispose()
  })
})
