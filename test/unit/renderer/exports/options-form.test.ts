// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { nextTick, ref } from 'vue'
import { mount } from '@vue/test-utils'
import ExportOptionsForm from '../../../../renderer/src/components/exports/ExportOptionsForm.vue'
import { defaultForm, toOptions, type ExportForm } from '../../../../renderer/src/domain/exports/options'
import { sampleDefinition } from '../../../support/channel-samples'
import { info as infoView } from '../reports/fixtures'

describe('ExportOptionsForm', () => {
  it('offers "API column names", off by default; ticked, the export asks for them', async () => {
    const form = ref<ExportForm>(defaultForm({ ...sampleDefinition, granularity: 'granularity_day', breakdown: ['publisher'] }))
    const wrapper = mount(ExportOptionsForm, {
      props: { form: form.value, 'onUpdate:form': (value: ExportForm) => (form.value = value), info: infoView, filterCount: 0, problems: {} },
    })
    const box = wrapper.get('[data-test="export-api-column-names"]')
    expect(box.text()).toContain('API column names')
    expect(toOptions(form.value).apiColumnNames).toBe(false)
    await box.trigger('click')
    await nextTick()
    expect(toOptions(form.value).apiColumnNames).toBe(true)
  })
})
