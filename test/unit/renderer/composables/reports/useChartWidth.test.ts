// @vitest-environment happy-dom
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { defineComponent, h, ref } from 'vue'
import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import type { Profile } from '@contract'
import { useChartWidth, type CreateWidthObserver } from '../../../../../renderer/src/composables/reports/useChartWidth'
import { pointBudget } from '../../../../../common/charts/chart-option'
import { usePresetsStore } from '../../../../../renderer/src/stores/presets'
import { useReportsStore } from '../../../../../renderer/src/stores/reports'
import { useWorkspaceStore } from '../../../../../renderer/src/stores/workspace'
import { fakeReportsApi, ok, savedPreset } from '../../reports/fake-api'

/** An observer the test drives: `resize` reports a width as the browser would after layout. */
function fakeObserver() {
  const observed: Element[] = []
  const disconnect = vi.fn()
  let report: Parameters<CreateWidthObserver>[0] = () => undefined
  const create: CreateWidthObserver = (callback) => {
    report = callback
    return { observe: (element) => observed.push(element), disconnect }
  }
  const resize = (width: number) => report([{ contentRect: { width } as DOMRectReadOnly }])
  return { create, observed, disconnect, resize }
}

/** A stand-in for the chart panel: its root element observed, the width fed to the store as ChartPanel does. */
function mountPanel(create: CreateWidthObserver) {
  const reports = useReportsStore()
  return mount(
    defineComponent({
      setup() {
        const root = ref<HTMLElement | null>(null)
        useChartWidth(root, (width) => reports.setPointBudget(pointBudget(width)), create)
        return () => h('div', { ref: root })
      },
    }),
  )
}

describe('useChartWidth', () => {
  beforeEach(() => {
    setActivePinia(createPinia())
    useWorkspaceStore().active = { id: 'p1', name: 'Sandbox', defaultProject: 'demo', defaultSlicer: 'supply', isDemo: false } as Profile
  })

  it('gives the store the laid-out chart’s budget before any run, so an opened preset’s kept chart and run are cut to it', async () => {
    const api = fakeReportsApi()
    const reports = useReportsStore()
    const preset = await savedPreset()
    api.presets.get.mockImplementation(() => ok(preset))
    const observer = fakeObserver()
    const panel = mountPanel(observer.create)
    expect(observer.observed).toEqual([panel.element])

    observer.resize(900)
    await usePresetsStore().open('Weekly')
    expect(api.results.get.mock.calls[0]?.[0]).toMatchObject({ pointBudget: pointBudget(900) })
    expect(api.reports.run.mock.calls[0]?.[0]).toMatchObject({ pointBudget: pointBudget(900) })

    // A hidden tab measures 0: the last real width stands. A wider window asks for more.
    observer.resize(0)
    expect(reports.pointBudget).toBe(pointBudget(900))
    observer.resize(1_400)
    await usePresetsStore().open('Weekly')
    expect(api.results.get.mock.calls[1]?.[0]).toMatchObject({ pointBudget: pointBudget(1_400) })

    panel.unmount()
    expect(observer.disconnect).toHaveBeenCalledTimes(1)
  })

  it('leaves main’s default while the chart panel has never been laid out', async () => {
    const api = fakeReportsApi()
    const preset = await savedPreset()
    api.presets.get.mockImplementation(() => ok(preset))
    mountPanel(fakeObserver().create)
    await usePresetsStore().open('Weekly')
    expect(api.results.get.mock.calls[0]?.[0]).not.toHaveProperty('pointBudget')
    expect(api.reports.run.mock.calls[0]?.[0]).not.toHaveProperty('pointBudget')
  })
})
