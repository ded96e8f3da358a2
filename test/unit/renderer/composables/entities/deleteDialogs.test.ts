// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest'
import { defineComponent, h, ref } from 'vue'
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { NDialogProvider } from 'naive-ui'
import { kindSpec } from '../../fixtures/entitySpecs'
import { useBulkDelete } from '../../../../../renderer/src/composables/entities/useBulkDelete'
import { useEntityDelete } from '../../../../../renderer/src/composables/entities/useEntityDelete'

/** Entity deletes are in the change log, whose Revert creates them again: the confirmation says so, never "cannot be undone". */
const brands = kindSpec('brands')!

function withDialogs(run: (single: ReturnType<typeof useEntityDelete>, bulk: ReturnType<typeof useBulkDelete>) => void) {
  setActivePinia(createPinia())
  const Probe = defineComponent({
    setup() {
      const single = useEntityDelete({ profileId: 'p1', spec: brands, deleted: async () => undefined, formError: ref(null) })
      const bulk = useBulkDelete()
      return () => h('button', { 'data-test': 'probe', onClick: () => run(single, bulk) })
    },
  })
  return mount(defineComponent({ render: () => h(NDialogProvider, null, { default: () => h(Probe) }) }), { attachTo: document.body })
}

afterEach(() => {
  document.body.innerHTML = ''
})

describe('the delete confirmations', () => {
  it('says a single delete can be reverted from the change log', async () => {
    const wrapper = withDialogs((single) => single.confirmDelete({ id: 4, name: 'Humongous' }, 'Humongous'))
    document.querySelector<HTMLButtonElement>('[data-test="probe"]')?.click()
    await flushPromises()
    const text = document.querySelector('.n-dialog')?.textContent ?? ''
    expect(text).toContain('Change log')
    expect(text).not.toMatch(/cannot be undone/i)
    wrapper.unmount()
  })

  it('says the same of a bulk delete', async () => {
    const wrapper = withDialogs((_single, bulk) =>
      bulk.confirmAndRun(
        'p1',
        brands,
        [
          { id: 1, name: 'A' },
          { id: 2, name: 'B' },
        ],
        () => undefined,
      ),
    )
    document.querySelector<HTMLButtonElement>('[data-test="probe"]')?.click()
    await flushPromises()
    const text = document.querySelector('.n-dialog')?.textContent ?? ''
    expect(text).toContain('Change log')
    expect(text).not.toMatch(/cannot be undone/i)
    wrapper.unmount()
  })
})
