// @vitest-environment happy-dom
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { defineComponent, h } from 'vue'
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { NDialogProvider } from 'naive-ui'
import type { Entity, Outcome } from '@contract'
import EntityForm from '../../../../../renderer/src/components/entities/EntityForm.vue'
import { brandsSpec } from '../../fixtures/entitySpecs'

/** The bridge as the form uses it: a create that answers with what it was sent. */
function fakeApi() {
  const ok = <T>(value: T): Promise<Outcome<T>> => Promise.resolve({ ok: true, value })
  const api = {
    entities: {
      get: vi.fn(),
      create: vi.fn((input: { entity: Record<string, unknown> }) => ok({ ...input.entity, id: 151 } as Entity)),
      update: vi.fn(),
      delete: vi.fn(),
    },
    drafts: { list: vi.fn(() => ok([])), save: vi.fn(() => ok(null)), discard: vi.fn(() => ok(null)) },
    onSyncProgress: () => () => undefined,
    onThrottled: () => () => undefined,
  }
  Object.defineProperty(window, 'api', { value: api, configurable: true })
  return api
}

/** A new brand's form, inside the dialog provider the drawer gives it. */
function mountNewBrand() {
  const wrapper = mount(
    defineComponent({
      render: () =>
        h(NDialogProvider, null, {
          default: () => h(EntityForm, { profileId: 'p1', spec: brandsSpec, entity: null, locked: null, optionsFor: () => [] }),
        }),
    }),
    { attachTo: document.body },
  )
  return wrapper
}

describe('a new brand with a domain typed but not added', () => {
  beforeEach(() => setActivePinia(createPinia()))

  it('creates the brand with the typed domain when it is valid', async () => {
    const api = fakeApi()
    const wrapper = mountNewBrand()
    await wrapper.get('[data-test="field-name"] input').setValue('Contoso Coffee Walk')
    await wrapper.get('[data-test="domain-new"] input').setValue('Contoso-Tea.example')
    await wrapper.get('[data-test="form-save"]').trigger('click')
    await flushPromises()
    expect(api.entities.create).toHaveBeenCalledTimes(1)
    expect(api.entities.create.mock.calls[0]?.[0].entity).toMatchObject({ name: 'Contoso Coffee Walk', advertiser_domains: ['contoso-tea.example'] })
    wrapper.unmount()
  })

  it('creates nothing while the typed domain is invalid, and says why under the field', async () => {
    const api = fakeApi()
    const wrapper = mountNewBrand()
    await wrapper.get('[data-test="field-name"] input').setValue('Contoso Coffee Walk')
    const adder = wrapper.get('[data-test="domain-new"] input')
    await adder.setValue('not a domain!!')
    await wrapper.get('[data-test="form-save"]').trigger('click')
    await flushPromises()
    expect(api.entities.create).not.toHaveBeenCalled()
    expect(wrapper.get('[data-test="domain-add-error"]').text()).toBe('A domain cannot contain spaces')
    // The text stays for the user to correct, and the focus goes to it.
    expect((adder.element as HTMLInputElement).value).toBe('not a domain!!')
    expect(document.activeElement).toBe(adder.element)

    // Corrected, the same button creates the brand with it.
    await adder.setValue('contoso-tea.example')
    await wrapper.get('[data-test="form-save"]').trigger('click')
    await flushPromises()
    expect(api.entities.create.mock.calls[0]?.[0].entity).toMatchObject({ advertiser_domains: ['contoso-tea.example'] })
    wrapper.unmount()
  })

  it('does not refuse a typed domain that is already in the list', async () => {
    const api = fakeApi()
    const wrapper = mountNewBrand()
    await wrapper.get('[data-test="field-name"] input').setValue('Contoso Coffee Walk')
    const adder = wrapper.get('[data-test="domain-new"] input')
    await adder.setValue('contoso.example')
    await adder.trigger('keydown', { key: 'Enter' })
    await adder.setValue('CONTOSO.example')
    await wrapper.get('[data-test="form-save"]').trigger('click')
    await flushPromises()
    expect(api.entities.create.mock.calls[0]?.[0].entity).toMatchObject({ advertiser_domains: ['contoso.example'] })
    wrapper.unmount()
  })
})
