import { describe, expect, it } from 'vitest'
import { init, use, type EChartsType } from 'echarts/core'
import { LineChart } from 'echarts/charts'
import { GridComponent, LegendComponent } from 'echarts/components'
import { SVGRenderer } from 'echarts/renderers'
import { ECPolyline } from 'echarts/lib/chart/line/poly.js'
import { changesNothing, installSteadyLinePaths } from '../../../../renderer/src/components/reports/steadyLinePaths'

use([LineChart, GridComponent, LegendComponent, SVGRenderer])
installSteadyLinePaths()

interface DrawnPath {
  type: string
  name?: string
  shape: { points: ArrayLike<number> }
  shapeChanged(): boolean
  pathUpdated(): void
}

const categories = Array.from({ length: 60 }, (_unused, index) => `2026-01-01 ${String(index).padStart(2, '0')}`)
/** Three lines; "big" alone sets the top of the y-axis. */
const lines = { small: 100, middle: 200, big: 5_000 }

function chart(): EChartsType {
  // ECharts' server-side mode: lays the chart out and builds its graphics without a DOM.
  const instance = init(null, null, { renderer: 'svg', ssr: true, width: 640, height: 380 })
  instance.setOption({
    animation: false,
    legend: { show: false },
    xAxis: { type: 'category', data: categories },
    yAxis: { type: 'value' },
    series: Object.entries(lines).map(([name, level]) => ({
      type: 'line',
      name,
      showSymbol: false,
      data: categories.map((_category, index) => level + (index % 7)),
    })),
  })
  return instance
}

function polylines(instance: EChartsType): DrawnPath[] {
  const storage = (instance.getZr() as unknown as { storage: { getDisplayList(update: boolean): DrawnPath[] } }).storage
  return storage.getDisplayList(true).filter((element) => element.type === 'ec-polyline')
}

/** What a paint does to every line: its path is built, so it is no longer marked changed. */
const paint = (instance: EChartsType): void => polylines(instance).forEach((line) => line.pathUpdated())

describe('lines whose shape did not change keep their built path', () => {
  it('a legend toggle that leaves the axis as it was rebuilds no other line', () => {
    const instance = chart()
    paint(instance)
    const before = new Map(polylines(instance).map((line) => [line, line.shape.points]))
    instance.dispatchAction({ type: 'legendUnSelect', name: 'small' })
    const left = polylines(instance)
    expect(left).toHaveLength(2)
    // ECharts set smooth, smoothMonotone and connectNulls on each again; without the patch that marked them all changed.
    for (const line of left) {
      expect(before.has(line)).toBe(true)
      expect(line.shapeChanged()).toBe(false)
    }
    instance.dispose()
  })

  it('a toggle that moves the axis rebuilds the lines it moved', () => {
    const instance = chart()
    paint(instance)
    instance.dispatchAction({ type: 'legendUnSelect', name: 'big' })
    const left = polylines(instance)
    expect(left).toHaveLength(2)
    for (const line of left) expect(line.shapeChanged()).toBe(true)
    instance.dispose()
  })

  it('a line switched back on is drawn again', () => {
    const instance = chart()
    instance.dispatchAction({ type: 'legendUnSelect', name: 'small' })
    paint(instance)
    instance.dispatchAction({ type: 'legendSelect', name: 'small' })
    expect(polylines(instance)).toHaveLength(3)
    expect(polylines(instance).filter((line) => line.shapeChanged())).toHaveLength(1)
    instance.dispose()
  })

  it('setShape still marks a change for new values, objects and arrays (which may have been changed in place)', () => {
    const points = new Float32Array([0, 0, 10, 10])
    const line = new ECPolyline({ shape: { points, smooth: 0, connectNulls: false } }) as unknown as DrawnPath & ECPolyline
    line.pathUpdated()
    line.setShape({ smooth: 0, connectNulls: false })
    expect(line.shapeChanged()).toBe(false)
    line.setShape({ smooth: 0.4 })
    expect(line.shapeChanged()).toBe(true)
    line.pathUpdated()
    line.setShape({ points })
    expect(line.shapeChanged()).toBe(true)
  })

  it('changesNothing compares primitives only', () => {
    expect(changesNothing({ smooth: 0, connectNulls: false }, { smooth: 0 })).toBe(true)
    expect(changesNothing({ smooth: 0 }, { smooth: 1 })).toBe(false)
    expect(changesNothing({ smooth: Number.NaN }, { smooth: Number.NaN })).toBe(true)
    const points = [1, 2]
    expect(changesNothing({ points }, { points })).toBe(false)
    expect(changesNothing(undefined, { smooth: 0 })).toBe(false)
  })
})
