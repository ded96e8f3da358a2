// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest'
import { KeepAlive, defineComponent, h, nextTick, ref } from 'vue'
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { NMessageProvider } from 'naive-ui'
import PresetsPanel from '../../../../renderer/src/components/reports/PresetsPanel.vue'
import { fakeReportsApi } from './fake-api'

describe('the presets panel', () => {
  beforeEach(() => setActivePinia(createPinia()))

  it('reads the list when first shown and again at every later visit of the kept-alive view', async () => {
    const api = fakeReportsApi()
    const shown = ref(true)
    const Elsewhere = defineComponent({ render: () => h('p', 'another section') })
    const wrapper = mount(
      defineComponent({
        render: () => h(NMessageProvider, null, { default: () => h(KeepAlive, null, { default: () => h(shown.value ? PresetsPanel : Elsewhere) }) }),
      }),
    )
    await flushPromises()
    expect(api.presets.list).toHaveBeenCalledTimes(1)
    shown.value = false
    await nextTick()
    shown.value = true
    await flushPromises()
    expect(wrapper.find('[data-test="presets-panel"]').exists()).toBe(true)
    expect(api.presets.list).toHaveBeenCalledTimes(2)
    wrapper.unmount()
  })
})
