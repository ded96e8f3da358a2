// @vitest-environment happy-dom
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { defineComponent, h } from 'vue'
import { mount } from '@vue/test-utils'
import { init, type EChartsType } from 'echarts/core'
import '../../../../../renderer/src/components/reports/echarts'
import { drawWarmUpChart, forgetWarmUp, useChartWarmUp } from '../../../../../renderer/src/composables/reports/useChartWarmUp'
import type { IdleScheduler } from '../../../../../renderer/src/lib/idle'
import { manualCallbacks } from '../../../../support/manual-callbacks'

/** Idle callbacks the test runs by hand. */
function manualIdle() {
  const callbacks = manualCallbacks()
  const idle: IdleScheduler = { request: callbacks.add, cancel: callbacks.remove }
  return { idle, run: callbacks.run, waiting: callbacks.waiting }
}

function mountWith(hasChart: () => boolean, idle: IdleScheduler, draw: () => void) {
  return mount(
    defineComponent({
      setup() {
        useChartWarmUp(hasChart, idle, draw)
        return () => h('div')
      },
    }),
  )
}

describe('useChartWarmUp', () => {
  beforeEach(() => forgetWarmUp())

  it('draws once the page is idle, once per page', () => {
    const idle = manualIdle()
    const draw = vi.fn()
    mountWith(() => false, idle.idle, draw)
    expect(draw).not.toHaveBeenCalled()
    idle.run()
    expect(draw).toHaveBeenCalledTimes(1)
    mountWith(() => false, idle.idle, draw)
    idle.run()
    expect(draw).toHaveBeenCalledTimes(1)
  })

  it('does nothing when a chart is already shown, or shows by the time the page is idle', () => {
    const idle = manualIdle()
    const draw = vi.fn()
    mountWith(() => true, idle.idle, draw)
    expect(idle.waiting.size).toBe(0)
    let shown = false
    mountWith(() => shown, idle.idle, draw)
    shown = true
    idle.run()
    expect(draw).not.toHaveBeenCalled()
  })

  it('asks for nothing more once its component is gone', () => {
    const idle = manualIdle()
    const draw = vi.fn()
    mountWith(() => false, idle.idle, draw).unmount()
    expect(idle.waiting.size).toBe(0)
    expect(draw).not.toHaveBeenCalled()
  })
})

describe('drawWarmUpChart', () => {
  it('draws the chart through the same option builder, toggles a line, and disposes of it', () => {
    let chart: EChartsType | null = null
    // ECharts' server-side mode stands in for the canvas happy-dom lacks.
    drawWarmUpChart(() => (chart = init(null, null, { renderer: 'svg', ssr: true, width: 600, height: 300 })))
    expect(chart).not.toBeNull()
    expect((chart as unknown as EChartsType).isDisposed()).toBe(true)
  })
})
