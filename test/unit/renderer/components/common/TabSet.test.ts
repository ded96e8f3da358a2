// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest'
import { defineComponent, h, nextTick, ref } from 'vue'
import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import TabSet from '../../../../../renderer/src/components/common/TabSet.vue'
import { tabKeyTarget } from '../../../../../renderer/src/composables/useTabKeys'

const tabs = [
  { name: 'chart', label: 'Time series' },
  { name: 'audience', label: 'Audience' },
  { name: 'third', label: 'Third' },
]

function mountTabs(activation: 'automatic' | 'manual' = 'automatic') {
  const value = ref('chart')
  const Host = defineComponent({
    render: () =>
      h('div', [
        h(TabSet, { tabs, value: value.value, base: 'result', label: 'Report result', activation, 'onUpdate:value': (name: string) => (value.value = name) }),
        ...tabs.map((tab) => h('div', { id: `result-panel-${tab.name}`, role: 'tabpanel', 'aria-labelledby': `result-tab-${tab.name}` })),
      ]),
  })
  const wrapper = mount(Host, { attachTo: document.body })
  return { wrapper, value }
}

const focused = () => document.activeElement as HTMLElement
async function press(key: string): Promise<void> {
  focused().dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }))
  await nextTick()
  await nextTick()
}

describe('a tab set (WAI-ARIA tabs pattern)', () => {
  beforeEach(() => setActivePinia(createPinia()))

  it('is a tablist of tabs with one tab stop, each tab naming the panel it controls', () => {
    const { wrapper } = mountTabs()
    const list = wrapper.get('[role="tablist"]')
    expect(list.attributes('aria-label')).toBe('Report result')
    const roles = wrapper.findAll('[role="tab"]')
    expect(roles.map((tab) => tab.text())).toEqual(['Time series', 'Audience', 'Third'])
    expect(roles.map((tab) => tab.attributes('tabindex'))).toEqual(['0', '-1', '-1'])
    expect(roles.map((tab) => tab.attributes('aria-selected'))).toEqual(['true', 'false', 'false'])
    for (const tab of roles) expect(document.getElementById(tab.attributes('aria-controls') ?? '')?.getAttribute('aria-labelledby')).toBe(tab.attributes('id'))
    wrapper.unmount()
  })

  it('switches by keyboard alone: arrows wrap around, Home and End go to the ends, the tab stop follows', async () => {
    const { wrapper, value } = mountTabs()
    ;(wrapper.get('[role="tab"][aria-selected="true"]').element as HTMLElement).focus()
    await press('ArrowRight')
    expect(value.value).toBe('audience')
    expect(focused().textContent?.trim()).toBe('Audience')
    expect(wrapper.findAll('[role="tab"]').map((tab) => tab.attributes('tabindex'))).toEqual(['-1', '0', '-1'])
    await press('End')
    expect(value.value).toBe('third')
    await press('ArrowRight')
    expect(value.value).toBe('chart')
    await press('ArrowLeft')
    expect(value.value).toBe('third')
    await press('Home')
    expect(value.value).toBe('chart')
    expect(focused().getAttribute('aria-selected')).toBe('true')
    wrapper.unmount()
  })

  it('with manual activation, arrows move the focus only and Enter selects', async () => {
    const { wrapper, value } = mountTabs('manual')
    ;(wrapper.get('[role="tab"][aria-selected="true"]').element as HTMLElement).focus()
    await press('ArrowRight')
    expect(focused().textContent?.trim()).toBe('Audience')
    expect(value.value).toBe('chart')
    // A button's Enter is its click.
    focused().click()
    await nextTick()
    expect(value.value).toBe('audience')
    wrapper.unmount()
  })

  it('leaves other keys to the browser', () => {
    expect(tabKeyTarget('Tab', 0, 3)).toBeNull()
    expect(tabKeyTarget('ArrowRight', 0, 0)).toBeNull()
  })
})
