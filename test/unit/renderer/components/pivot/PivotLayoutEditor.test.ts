// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { mount } from '@vue/test-utils'
import PivotLayoutEditor from '../../../../../renderer/src/components/pivot/PivotLayoutEditor.vue'
import type { PivotLayout } from '../../../../../common/pivot/types'

const layout: PivotLayout = {
  rows: ['publisher'],
  columns: [],
  values: [{ field: 'revenue', aggregate: 'sum' }],
  sort: { by: 'value', value: 0, column: null, direction: 'desc' },
  top: null,
  subtotals: false,
  showChange: false,
}

const editor = (shape: PivotLayout = layout) =>
  mount(PivotLayoutEditor, {
    props: { layout: shape, fields: ['publisher', 'country', 'device'], metrics: ['revenue'], comparison: false, title: (field: string) => field },
  })

describe('the pivot layout editor', () => {
  it('says what an empty side means instead of "Please Select"', () => {
    const wrapper = editor({ ...layout, rows: [] })
    expect(wrapper.text()).not.toContain('Please Select')
    expect(wrapper.get('[data-test="pivot-columns"]').text()).toContain('None: one column per value')
    expect(wrapper.get('[data-test="pivot-rows"]').text()).toContain('None: one Total row')
  })

  it('offers on each side only the fields the other side has not taken, and reports a pick as that side of the layout', async () => {
    const wrapper = editor()
    const pickers = wrapper.findAllComponents({ name: 'PivotFieldPicker' })
    expect(pickers.map((picker) => picker.props('label'))).toEqual(['Rows', 'Columns'])
    expect(pickers[1]?.props('options')).toEqual([
      { label: 'country', value: 'country' },
      { label: 'device', value: 'device' },
    ])
    pickers[1]?.vm.$emit('update', ['country'])
    pickers[0]?.vm.$emit('update', ['device', 'publisher'])
    expect(wrapper.emitted('update')).toEqual([[{ columns: ['country'] }], [{ rows: ['device', 'publisher'] }]])
  })
})
