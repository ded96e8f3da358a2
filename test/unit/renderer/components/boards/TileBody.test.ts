// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { defineComponent, h, nextTick } from 'vue'
import { mount } from '@vue/test-utils'
import type { OpenTile } from '@contract'
import type { TileShown } from '../../../../../renderer/src/composables/boards/useOpenBoard'
import TileBody from '../../../../../renderer/src/components/boards/TileBody.vue'
import { sampleDefinition } from '../../../../support/channel-samples'
import { singleSeriesChart } from '../../../../support/chart-results'

/** A ResizeObserver the test drives: `resize` reports a new content height of the observed element. */
const observers: Array<{ callback: ResizeObserverCallback; element: Element | null; disconnected: boolean }> = []
class FakeResizeObserver {
  private readonly entry: (typeof observers)[number]
  constructor(callback: ResizeObserverCallback) {
    this.entry = { callback, element: null, disconnected: false }
    observers.push(this.entry)
  }
  observe(element: Element): void {
    this.entry.element = element
  }
  unobserve(): void {}
  disconnect(): void {
    this.entry.disconnected = true
  }
}
async function resize(height: number, width = 400): Promise<void> {
  for (const observer of observers) {
    if (observer.disconnected || observer.element === null) continue
    const entry = { target: observer.element, contentRect: { width, height } } as unknown as ResizeObserverEntry
    observer.callback([entry], observer as unknown as ResizeObserver)
  }
  await nextTick()
}

/** ReportChart as a stub: ECharts has no canvas here, and what is checked is the height the tile gives it. */
const ReportChart = defineComponent({ name: 'ReportChart', props: { compact: Boolean }, setup: () => () => h('div', { 'data-test': 'report-chart' }) })
const tile: OpenTile = {
  id: 'tile-1',
  title: 'Impressions',
  view: 'chart',
  place: { x: 0, y: 0, w: 4, h: 4 },
  preset: 'Weekly',
  definition: sampleDefinition,
  problem: null,
}
const shown: TileShown = {
  chart: singleSeriesChart({ values: [1, 2, 3], ranAt: '2026-11-26T06:00:00.000Z', timezone: 0, durationMs: 1 }),
  audience: null,
  ranAt: '2026-11-26T06:00:00.000Z',
  status: 'idle',
  error: null,
}
const original = globalThis.ResizeObserver

beforeEach(() => {
  observers.length = 0
  globalThis.ResizeObserver = FakeResizeObserver as unknown as typeof ResizeObserver
})
afterEach(() => {
  globalThis.ResizeObserver = original
})

describe("a tile's chart", () => {
  it('takes the size of the tile body as laid out, and follows it when the tile is resized', async () => {
    const wrapper = mount(TileBody, { props: { tile, shown }, global: { stubs: { ReportChart } } })
    // Not drawn before the body is measured: ECharts would paint at a height it is about to leave.
    expect(wrapper.find('[data-test="report-chart"]').exists()).toBe(false)
    await resize(214, 478.67)
    // Whole pixels, as ECharts measures its box: a fractional width made vue-echarts resize (draw again) every chart once.
    expect(wrapper.find('[data-test="report-chart"]').attributes('style')).toBe('width: 478px; height: 214px;')
    // A tile made taller (Shift+Down) gives its chart the new height, not a fixed one cut at the bottom.
    await resize(342.6)
    expect(wrapper.find('[data-test="report-chart"]').attributes('style')).toContain('height: 342px')
    // Too short to read: the chart keeps a readable height and the body scrolls to it.
    await resize(90)
    expect(wrapper.find('[data-test="report-chart"]').attributes('style')).toContain('height: 120px')
    // Hidden (0 high): the last height stays.
    await resize(0)
    expect(wrapper.find('[data-test="report-chart"]').attributes('style')).toContain('height: 120px')
    // A tile's chart is compact: no zoom bar under its short plot.
    expect(wrapper.findComponent(ReportChart).props('compact')).toBe(true)
    wrapper.unmount()
    expect(observers.every((observer) => observer.disconnected)).toBe(true)
  })

  it('leaves a single number as it is', async () => {
    const wrapper = mount(TileBody, { props: { tile: { ...tile, view: 'number' }, shown }, global: { stubs: { ReportChart } } })
    await resize(214)
    expect(wrapper.find('[data-test="report-chart"]').exists()).toBe(false)
    expect(wrapper.find('[data-test="tile-number"]').exists()).toBe(true)
    wrapper.unmount()
  })
})
