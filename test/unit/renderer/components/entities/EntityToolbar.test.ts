// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { mount } from '@vue/test-utils'
import { NButton, NTooltip } from 'naive-ui'
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
  arriving: false,
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

  it('says a search covers the rows here so far while the rest of the list arrives, and which search its count answers', async () => {
    const wrapper = mount(EntityToolbar, { props: { ...props, arriving: true } })
    const count = wrapper.get('[data-test="row-count"]')
    expect(count.text()).toBe('12 of 100 so far')
    expect(count.attributes('data-arriving')).toBe('')
    expect(count.attributes('data-query')).toBe('4')
    // Another key, the same count over the rows so far: the count still says which search it answers.
    await wrapper.setProps({ query: '42' })
    expect(count.text()).toBe('12 of 100 so far')
    expect(count.attributes('data-query')).toBe('42')
    await wrapper.setProps({ arriving: false })
    expect(count.text()).toBe('12 of 100')
    expect(count.attributes('data-arriving')).toBeUndefined()
  })

  it('keeps its Clear button made while nothing is filtered: the first keystroke only shows it', async () => {
    const wrapper = mount(EntityToolbar, { props: { ...props, query: '', filtered: false } })
    const clear = wrapper.get('[data-test="clear-filters"]')
    expect(clear.attributes('style')).toContain('display: none')
    await wrapper.setProps({ query: '4', filtered: true })
    expect(wrapper.get('[data-test="clear-filters"]').element).toBe(clear.element)
    expect(clear.attributes('style') ?? '').not.toContain('display: none')
  })

  it('renders none of its action buttons again at a keystroke: only the search box and the count change', async () => {
    const wrapper = mount(EntityToolbar, { props: { ...props, checkedCount: 2 } })
    const buttons = [...wrapper.findAllComponents(NButton), ...wrapper.findAllComponents(NTooltip)].filter(
      (button) => button.attributes('data-test') !== 'clear-filters',
    )
    expect(buttons.length).toBeGreaterThanOrEqual(6)
    // A component's rendered tree is a new object each time it renders.
    const trees = buttons.map((button) => button.vm.$.subTree)
    await wrapper.setProps({ query: '42', shown: 3 })
    await wrapper.setProps({ query: '421', shown: 1 })
    expect(wrapper.get('[data-test="row-count"]').text()).toBe('1 of 100')
    expect(buttons.filter((button, position) => button.vm.$.subTree !== trees[position])).toHaveLength(0)
    // They still follow what they show: none left once nothing matches.
    await wrapper.setProps({ query: '4217', shown: 0 })
    expect(wrapper.get('[data-test="export"]').attributes('disabled')).toBeDefined()
  })
})
