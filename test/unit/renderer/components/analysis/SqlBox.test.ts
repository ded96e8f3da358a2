// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { mount } from '@vue/test-utils'
import type { SqlRows } from '@contract'
import SqlBox from '../../../../../renderer/src/components/analysis/SqlBox.vue'

const answer = (rows: SqlRows['rows']): SqlRows => ({ columns: ['publisher', 'impressions', 'active'], rows, truncated: false, notes: [] })

const mountBox = (rows: SqlRows | null = null) => mount(SqlBox, { props: { tables: ['sales'], rows, error: null } })

describe('the SQL box', () => {
  it('runs on Ctrl+Enter (and ⌘+Enter), says so with aria-keyshortcuts, and a plain Enter is a new line', async () => {
    const wrapper = mountBox()
    const textarea = wrapper.find('textarea')
    await textarea.setValue('SELECT 1')
    expect(textarea.attributes('aria-keyshortcuts')).toBe('Control+Enter Meta+Enter')
    expect(wrapper.find('[data-test="analysis-sql-run"]').attributes('aria-keyshortcuts')).toBe('Control+Enter Meta+Enter')
    await textarea.trigger('keydown', { key: 'Enter' })
    expect(wrapper.emitted('run')).toBeUndefined()
    await textarea.trigger('keydown', { key: 'Enter', ctrlKey: true })
    await textarea.trigger('keydown', { key: 'Enter', metaKey: true })
    expect(wrapper.emitted('run')).toEqual([['SELECT 1'], ['SELECT 1']])
    wrapper.unmount()
  })

  it('an empty query does not run on Ctrl+Enter', async () => {
    const wrapper = mountBox()
    await wrapper.find('textarea').trigger('keydown', { key: 'Enter', ctrlKey: true })
    expect(wrapper.emitted('run')).toBeUndefined()
    wrapper.unmount()
  })

  it("formats numbers with the app's separators, right-aligned with their header; text stays left", () => {
    const wrapper = mountBox(
      answer([
        ['Alpha', 1234567.891, true],
        ['Beta', null, false],
      ]),
    )
    const cells = wrapper.findAll('tbody tr')[0]!.findAll('td')
    expect(cells.map((cell) => cell.text())).toEqual(['Alpha', '1,234,567.89', 'true'])
    expect(cells.map((cell) => cell.classes('number'))).toEqual([false, true, false])
    expect(wrapper.findAll('th').map((header) => header.classes('number'))).toEqual([false, true, false])
    wrapper.unmount()
  })

  it('says "1 row" for one row and "2 rows" for two', async () => {
    const wrapper = mountBox(answer([['Alpha', 1, true]]))
    expect(wrapper.find('[data-test="analysis-sql-count"]').text()).toBe('1 row')
    await wrapper.setProps({
      rows: answer([
        ['Alpha', 1, true],
        ['Beta', 2, false],
      ]),
    })
    expect(wrapper.find('[data-test="analysis-sql-count"]').text()).toBe('2 rows')
    wrapper.unmount()
  })

  it('offers Copy as TSV and Save CSV once there is an answer', async () => {
    const empty = mountBox()
    expect(empty.find('[data-test="analysis-sql-copy"]').exists()).toBe(false)
    empty.unmount()
    const wrapper = mountBox(answer([['Alpha', 1, true]]))
    await wrapper.find('[data-test="analysis-sql-copy"]').trigger('click')
    await wrapper.find('[data-test="analysis-sql-save"]').trigger('click')
    expect(wrapper.emitted('copy')).toHaveLength(1)
    expect(wrapper.emitted('save')).toHaveLength(1)
    wrapper.unmount()
  })
})
