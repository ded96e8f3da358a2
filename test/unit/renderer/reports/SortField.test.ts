// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { mount } from '@vue/test-utils'
import type { SortRule } from '@contract'
import SortField from '../../../../renderer/src/components/reports/SortField.vue'
import { info } from './fixtures'

/** The one sort field of the builder and of the Export… dialog: its fields and wording come as props. */
const mountSort = (props: Partial<InstanceType<typeof SortField>['$props']> = {}) =>
  mount(SortField, {
    props: { sort: [] as SortRule[], info, keys: ['country'], dataFields: ['revenue', 'impressions'], testId: 'export-sort', ...props },
  })

describe('SortField', () => {
  it('adds a rule on the given first field, or on the first data field, under the caller’s test ids', async () => {
    const exportSort = mountSort()
    expect(exportSort.get('[data-test="export-sort-field"]').text()).toContain("The platform's order.")
    await exportSort.get('[data-test="export-sort-add"]').trigger('click')
    expect(exportSort.emitted('update:sort')?.[0]).toEqual([[{ field: 'revenue', direction: 'DESC', byName: false }]])

    const builder = mountSort({ testId: 'sort', first: 'impressions', platformOrder: 'By the first metric.' })
    expect(builder.get('[data-test="sort-field"]').text()).toContain('By the first metric.')
    await builder.get('[data-test="sort-add"]').trigger('click')
    expect(builder.emitted('update:sort')?.[0]).toEqual([[{ field: 'impressions', direction: 'DESC', byName: false }]])
  })

  it('lists a row per rule and removes the one asked', async () => {
    const sort: SortRule[] = [
      { field: 'country', direction: 'ASC', byName: true },
      { field: 'revenue', direction: 'DESC', byName: false },
    ]
    const wrapper = mountSort({ sort })
    expect(wrapper.findAll('[data-test="export-sort-row"]')).toHaveLength(2)
    await wrapper.findAll('[data-test="export-sort-row"]')[0]!.get('button[title="Remove"]').trigger('click')
    expect(wrapper.emitted('update:sort')?.[0]).toEqual([[sort[1]]])
  })
})
