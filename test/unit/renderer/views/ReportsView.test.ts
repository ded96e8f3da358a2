// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest'
import { defineComponent, h } from 'vue'
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { NMessageProvider } from 'naive-ui'
import type { Profile } from '@contract'
import ReportsView from '../../../../renderer/src/views/ReportsView.vue'
import { runCommand } from '../../../../renderer/src/shell/commands'
import { useWorkspaceStore } from '../../../../renderer/src/stores/workspace'
import { fakeReportsApi, ok } from '../reports/fake-api'

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

describe('the Reports view', () => {
  beforeEach(() => setActivePinia(createPinia()))

  it('lists the presets before any report is picked, so one can be opened from an empty builder', async () => {
    const api = fakeReportsApi()
    // A connection with no default report, and none opened before: the builder has nothing to show.
    api.reports.known.mockImplementation(() => ok([]))
    api.presets.list.mockImplementation(() => ok({ presets: [summary('Weekly revenue'), summary('Fill check')], refused: [] }))
    useWorkspaceStore().active = { id: 'p1', name: 'Sandbox', defaultProject: '', defaultSlicer: '', isDemo: false } as Profile
    const wrapper = mount(defineComponent({ render: () => h(NMessageProvider, null, { default: () => h(ReportsView) }) }), { attachTo: document.body })
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
