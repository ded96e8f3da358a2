// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest'
import { mount, type VueWrapper } from '@vue/test-utils'
import { defineComponent, h, nextTick } from 'vue'
import { NButton, NFormItem, NInput, NInputNumber, NSelect, NTag } from 'naive-ui'
import BuilderField from '../../../../renderer/src/components/reports/BuilderField.vue'
import { nameControls } from '../../../../renderer/src/shell/accessible-controls'

/** Naive UI's own controls, drawn for real, then named as the page names them. */
let wrapper: VueWrapper | null = null
afterEach(() => {
  wrapper?.unmount()
  wrapper = null
})
async function draw(render: () => ReturnType<typeof h>): Promise<HTMLElement> {
  wrapper?.unmount()
  wrapper = mount(defineComponent({ render }), { attachTo: document.body })
  await nextTick()
  nameControls(wrapper.element as HTMLElement)
  return wrapper.element as HTMLElement
}
const options = [{ label: 'Impressions', value: 'imps' }]

describe('accessible controls', () => {
  it('makes a select in a builder field a combobox named by the field, its spinner hidden', async () => {
    const root = await draw(() => h(BuilderField, { label: 'Metrics' }, () => h(NSelect, { options, value: null, loading: true })))
    const combobox = root.querySelector('[role="combobox"]')
    const labelId = combobox?.getAttribute('aria-labelledby') ?? ''
    expect(document.getElementById(labelId)?.textContent).toBe('Metrics')
    expect(combobox?.getAttribute('aria-expanded')).toBe('false')
    expect(combobox?.getAttribute('aria-busy')).toBe('true')
    expect(root.querySelector('.n-base-loading')?.getAttribute('aria-hidden')).toBe('true')
  })

  it('hides a working button\'s spinner, so the button is not named by a picture of "loading"', async () => {
    const root = await draw(() => h(NButton, { loading: true }, () => 'Sync'))
    const spinner = root.querySelector('.n-base-loading')
    expect(spinner).not.toBeNull()
    expect(spinner?.getAttribute('aria-hidden')).toBe('true')
  })

  it('moves a name given to the select to its combobox, and names its tags removers', async () => {
    const root = await draw(() => h(NSelect, { options, value: ['imps'], multiple: true, 'aria-label': 'Top lines by' }))
    expect(root.matches('.n-select') && root.hasAttribute('aria-label')).toBe(false)
    expect(root.getAttribute('data-select-aria-label')).toBe('Top lines by')
    expect(root.querySelector('[role="combobox"]')?.getAttribute('aria-label')).toBe('Top lines by')
    const tag = await draw(() => h(NTag, { closable: true }, () => 'example.com'))
    expect(tag.querySelector('.n-base-close')?.getAttribute('aria-label')).toBe('Remove example.com')
  })

  it('names a form item’s field by its label, and a number field’s steppers', async () => {
    const form = await draw(() => h(NFormItem, { label: 'Token service (auth URL)' }, () => h(NInput, { placeholder: 'https://auth.example.com' })))
    const labelId = form.querySelector('input')?.getAttribute('aria-labelledby') ?? ''
    expect(document.getElementById(labelId)?.textContent).toBe('Token service (auth URL)')
    const stepper = await draw(() => h(NInputNumber, { value: 3, inputProps: { 'aria-label': 'Lines shown' } }))
    expect([...stepper.querySelectorAll('button')].map((button) => button.getAttribute('aria-label'))).toEqual(['Decrease Lines shown', 'Increase Lines shown'])
  })
})
