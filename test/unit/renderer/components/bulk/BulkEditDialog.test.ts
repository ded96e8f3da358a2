// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import { NSelect } from 'naive-ui'
import { kindSpec } from '../../fixtures/entitySpecs'
import BulkEditDialog from '../../../../../renderer/src/components/bulk/BulkEditDialog.vue'

afterEach(() => {
  document.body.innerHTML = ''
})

describe('BulkEditDialog', () => {
  it('offers a boolean field’s values as Yes and No, as the grid and the form say them', async () => {
    const wrapper = mount(BulkEditDialog, {
      props: { show: true, profileId: 'p1', spec: kindSpec('brands')!, checked: [1, 2, 3], shown: [{ id: 1 }, { id: 2 }, { id: 3 }] },
      attachTo: document.body,
    })
    ;(wrapper.vm as unknown as { start: (hasChecked: boolean) => void }).start(true)
    await flushPromises()
    // The select's menu opens in a popup happy-dom does not lay out: its options are read from the select.
    const select = wrapper.findAllComponents(NSelect).find((candidate) => candidate.attributes('data-test') === 'bulk-value-boolean')
    expect(select?.props('options')).toEqual([
      { label: 'Yes', value: 'true' },
      { label: 'No', value: 'false' },
    ])
    wrapper.unmount()
  })
})
