// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { mount } from '@vue/test-utils'
import DomainsField from '../../../../../renderer/src/components/entities/fields/DomainsField.vue'

describe('DomainsField', () => {
  it('adds valid domains, refuses invalid ones with a reason, and removes', async () => {
    const wrapper = mount(DomainsField, { props: { value: ['acme.example'], disabled: false, label: 'Advertiser domains' } })
    const adder = wrapper.get('[data-test="domain-new"] input')
    await adder.setValue('https://shop.acme.example')
    await wrapper.get('[data-test="domain-add"]').trigger('click')
    expect(wrapper.get('[data-test="domain-add-error"]').text()).toMatch(/without http/)
    expect(wrapper.emitted('update:value')).toBeUndefined()

    await adder.setValue('Shop.Acme.example')
    await adder.trigger('keydown', { key: 'Enter' })
    expect(wrapper.emitted('update:value')?.[0]).toEqual([['acme.example', 'shop.acme.example']])

    await wrapper.setProps({ value: ['acme.example', 'shop.acme.example'] })
    await adder.setValue('acme.example')
    await wrapper.get('[data-test="domain-add"]').trigger('click')
    expect(wrapper.get('[data-test="domain-add-error"]').text()).toBe('Already in the list')

    await wrapper.get('[data-test="domain-remove-0"]').trigger('click')
    expect(wrapper.emitted('update:value')?.at(-1)).toEqual([['shop.acme.example']])
  })

  it('marks an edited domain that became invalid', async () => {
    const wrapper = mount(DomainsField, { props: { value: ['not a domain'], disabled: false, label: 'Advertiser domains' } })
    expect(wrapper.text()).toContain('cannot contain spaces')
  })
})
