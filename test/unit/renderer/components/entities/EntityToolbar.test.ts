// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { mount } from '@vue/test-utils'
import EntityToolbar from '../../../../../renderer/src/components/entities/EntityToolbar.vue'

const props = {
  query: '4',
  shown: 12,
  total: 100,
  filtered: true,
  label: 'Publishers',
  singular: 'publisher',
  syncedAt: null,
  now: 0,
  syncing: false,
  checkedCount: 0,
  canEdit: true,
  lockedReason: null,
  shortcut: 'Ctrl',
}

describe('EntityToolbar', () => {
  it('writes no theme variables on its controls: the search box re-renders at every keystroke', async () => {
    const wrapper = mount(EntityToolbar, { props })
    await wrapper.setProps({ query: '42', shown: 3 })
    expect(wrapper.get('[data-test="row-count"]').text()).toBe('3 of 100')
    expect(wrapper.find('[data-test="search"] input').exists()).toBe(true)
    for (const element of wrapper.findAll('[style]')) expect(element.attributes('style')).not.toContain('--n-')
  })

  it('keeps its Clear button made while nothing is filtered: the first keystroke only shows it', async () => {
    const wrapper = mount(EntityToolbar, { props: { ...props, query: '', filtered: false } })
    const clear = wrapper.get('[data-test="clear-filters"]')
    expect(clear.attributes('style')).toContain('display: none')
    await wrapper.setProps({ query: '4', filtered: true })
    expect(wrapper.get('[data-test="clear-filters"]').element).toBe(clear.element)
    expect(clear.attributes('style') ?? '').not.toContain('display: none')
  })
})
