// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest'
import { defineComponent, h } from 'vue'
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { NDialogProvider, NMessageProvider } from 'naive-ui'
import type { Profile } from '@contract'
import ReportsView from '../../../../renderer/src/views/ReportsView.vue'
import { runCommand } from '../../../../renderer/src/shell/commands'
import { useWorkspaceStore } from '../../../../renderer/src/stores/workspace'
import { usePresetsStore } from '../../../../renderer/src/stores/presets'
import { useReportsStore } from '../../../../renderer/src/stores/reports'
import { fakeReportsApi, ok, savedPreset } from '../reports/fake-api'

const summary = (name: string) => ({
  name,
  description: '',
  savedAt: '2026-02-05T08:00:00.000Z',
  project: 'demo',
  report: 'supply',
  metrics: ['requests'],
  breakdown: [],
  dates: { start: '-7d', end: 'today' },
})

/** The view with the providers the app gives it (messages, dialogs). */
const mountView = () =>
  mount(
    defineComponent({
      render: () => h(NMessageProvider, null, { default: () => h(NDialogProvider, null, { default: () => h(ReportsView) }) }),
    }),
    { attachTo: document.body },
  )

describe('the Reports view', () => {
  beforeEach(() => setActivePinia(createPinia()))

  it('lists the presets before any report is picked, so one can be opened from an empty builder', async () => {
    const api = fakeReportsApi()
    // A connection with no default report, and none opened before: the builder has nothing to show.
    api.reports.known.mockImplementation(() => ok([]))
    api.presets.list.mockImplementation(() => ok({ presets: [summary('Weekly revenue'), summary('Fill check')], refused: [] }))
    useWorkspaceStore().active = { id: 'p1', name: 'Sandbox', defaultProject: '', defaultSlicer: '', isDemo: false } as Profile
    const wrapper = mountView()
    await flushPromises()
    expect(wrapper.find('[data-test="reports-empty"]').exists()).toBe(true)
    expect(wrapper.find('[data-test="builder"]').exists()).toBe(false)
    expect(wrapper.find('[data-test="presets-panel"]').exists()).toBe(true)
    expect(wrapper.find('[data-test="presets-count"]').text()).toBe('2')
    // Find goes to their search, report or not.
    expect(runCommand('find')).toBe(true)
    expect(document.activeElement).toBe(wrapper.find('[data-test="presets-search"] input').element)
    wrapper.unmount()
  })
})

describe('a preset link', () => {
  beforeEach(() => setActivePinia(createPinia()))

  const dialogText = (): string => document.querySelector('.n-dialog')?.textContent ?? ''
  const dialogButton = (text: string): HTMLButtonElement | undefined =>
    [...document.querySelectorAll<HTMLButtonElement>('.n-dialog button')].find((button) => button.textContent?.trim() === text)

  it('opens and runs its preset only once the user confirms, naming it first', async () => {
    const api = fakeReportsApi()
    useWorkspaceStore().active = { id: 'p1', name: 'Sandbox', defaultProject: 'demo', defaultSlicer: 'supply', isDemo: false } as Profile
    const weekly = await savedPreset()
    api.presets.get.mockImplementation(() => ok(weekly))
    usePresetsStore().requested = 'Weekly'
    const wrapper = mountView()
    await flushPromises()
    expect(dialogText()).toContain('Open the preset “Weekly”?')
    expect(api.presets.get).not.toHaveBeenCalled()
    expect(api.reports.run).not.toHaveBeenCalled()
    dialogButton('Open and run')?.click()
    await flushPromises()
    expect(api.presets.get).toHaveBeenCalledWith({ name: 'Weekly' })
    expect(api.reports.run).toHaveBeenCalled()
    expect(usePresetsStore().current?.name).toBe('Weekly')
    wrapper.unmount()
  })

  it('says unsaved changes will be replaced, and Cancel keeps the builder as it was', async () => {
    const api = fakeReportsApi()
    useWorkspaceStore().active = { id: 'p1', name: 'Sandbox', defaultProject: 'demo', defaultSlicer: 'supply', isDemo: false } as Profile
    const weekly = await savedPreset()
    api.presets.get.mockImplementation(() => ok(weekly))
    const wrapper = mountView()
    await flushPromises()
    const presets = usePresetsStore()
    await presets.open('Weekly', false)
    const reports = useReportsStore()
    reports.definition!.dates.start = '-30d'
    expect(presets.edited).toBe(true)
    api.presets.get.mockClear()

    presets.requested = 'Monthly'
    await flushPromises()
    expect(dialogText()).toContain('Open the preset “Monthly”?')
    expect(dialogText()).toContain('Your unsaved changes to “Weekly” will be replaced.')
    dialogButton('Cancel')?.click()
    await flushPromises()
    expect(api.presets.get).not.toHaveBeenCalled()
    expect(reports.definition?.dates.start).toBe('-30d')
    expect(presets.current?.name).toBe('Weekly')
    wrapper.unmount()
  })
})

describe('a preset chosen in the command palette', () => {
  beforeEach(() => setActivePinia(createPinia()))

  it('opens and runs at once, without the question a link from another program gets', async () => {
    const api = fakeReportsApi()
    useWorkspaceStore().active = { id: 'p1', name: 'Sandbox', defaultProject: 'demo', defaultSlicer: 'supply', isDemo: false } as Profile
    const weekly = await savedPreset()
    api.presets.get.mockImplementation(() => ok(weekly))
    usePresetsStore().openInReports('Weekly')
    const wrapper = mountView()
    await flushPromises()
    expect(document.querySelector('.n-dialog')).toBeNull()
    expect(api.presets.get).toHaveBeenCalledWith({ name: 'Weekly' })
    expect(api.reports.run).toHaveBeenCalled()
    expect(usePresetsStore().current?.name).toBe('Weekly')

    // And while Reports is already shown.
    api.presets.get.mockClear()
    usePresetsStore().openInReports('Monthly')
    await flushPromises()
    expect(document.querySelector('.n-dialog')).toBeNull()
    expect(api.presets.get).toHaveBeenCalledWith({ name: 'Monthly' })
    wrapper.unmount()
  })
})

describe('an alert’s link to its line', () => {
  beforeEach(() => setActivePinia(createPinia()))

  it('opens the alert’s preset with its line and the total shown, the other lines hidden', async () => {
    const api = fakeReportsApi()
    useWorkspaceStore().active = { id: 'p1', name: 'Sandbox', defaultProject: 'demo', defaultSlicer: 'supply', isDemo: false } as Profile
    const weekly = await savedPreset()
    api.presets.get.mockImplementation(() => ok(weekly))
    usePresetsStore().openInReports('Weekly', 'Germany <b>')
    const wrapper = mountView()
    await flushPromises()
    expect(api.presets.get).toHaveBeenCalledWith({ name: 'Weekly' })
    expect(useReportsStore().definition?.chart.hidden).toEqual(['impressions|FR', 'impressions|FR|compare'])
    wrapper.unmount()
  })
})
