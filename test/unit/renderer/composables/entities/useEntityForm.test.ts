// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { defineComponent, h, nextTick } from 'vue'
import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import type { Entity, Outcome } from '@contract'
import { DRAFT_DEBOUNCE_MS, useEntityForm, type EntityFormState } from '../../../../../renderer/src/composables/entities/useEntityForm'
import { useDraftsStore } from '../../../../../renderer/src/stores/drafts'
import { brandsSpec } from '../../fixtures/entitySpecs'

const brand: Entity = {
  id: 7,
  name: 'Acme Shoes',
  is_open_auction_allowed: true,
  is_pmp_allowed: false,
  advertiser_domains: ['acme.example'],
  external_id: 'BRD-7',
}

function fakeApi() {
  const ok = <T>(value: T): Promise<Outcome<T>> => Promise.resolve({ ok: true, value })
  const api = {
    entities: {
      get: vi.fn(() => ok(brand)),
      create: vi.fn(),
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

function mountForm(entity: Entity | null): { form: EntityFormState; unmount: () => void } {
  let form: EntityFormState | undefined
  const wrapper = mount(
    defineComponent({
      setup() {
        form = useEntityForm({ profileId: 'p1', spec: brandsSpec, entity })
        return () => h('div')
      },
    }),
  )
  if (!form) throw new Error('no form')
  return { form, unmount: () => wrapper.unmount() }
}

describe('useEntityForm', () => {
  beforeEach(() => {
    setActivePinia(createPinia())
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('saves a draft ~500 ms after typing stops, and drops it when the form matches the entity again', async () => {
    const api = fakeApi()
    const { form } = mountForm(brand)
    form.model['name'] = 'Acme'
    await nextTick()
    form.model['name'] = 'Acme Boots'
    await nextTick()
    vi.advanceTimersByTime(DRAFT_DEBOUNCE_MS - 100)
    expect(api.drafts.save).not.toHaveBeenCalled()
    vi.advanceTimersByTime(200)
    await vi.waitFor(() => expect(api.drafts.save).toHaveBeenCalledTimes(1))
    expect(api.drafts.save).toHaveBeenCalledWith(
      expect.objectContaining({ profileId: 'p1', kind: 'brands', key: '7', original: brand, draft: expect.objectContaining({ name: 'Acme Boots' }) }),
    )

    form.model['name'] = 'Acme Shoes'
    await nextTick()
    vi.advanceTimersByTime(DRAFT_DEBOUNCE_MS + 10)
    await vi.waitFor(() => expect(api.drafts.discard).toHaveBeenCalledWith({ profileId: 'p1', kind: 'brands', key: '7' }))
  })

  it('restores a draft with the original it was typed against', () => {
    fakeApi()
    const drafts = useDraftsStore()
    const older = { ...brand, name: 'Acme Shoes (old)' }
    drafts.drafts = [{ kind: 'brands', key: '7', draft: { name: 'Typed before the reload' }, original: older, savedAt: '2026-01-01T00:00:00.000Z' }]
    const { form } = mountForm(brand)
    expect(form.model['name']).toBe('Typed before the reload')
    expect(form.original.value).toEqual(older)
    expect(form.restoredAt.value).toBe('2026-01-01T00:00:00.000Z')
  })

  it("puts the server's field errors at their fields and keeps what was typed", async () => {
    const api = fakeApi()
    api.entities.update.mockImplementation(() =>
      Promise.resolve({
        ok: false,
        error: {
          code: 'validation',
          message: 'The platform refused the fields.',
          details: { fields: { advertiser_domains: ['Item 2: Enter a valid domain name.'] } },
        },
      }),
    )
    const { form } = mountForm(brand)
    form.model['advertiser_domains'] = ['acme.example', 'shop.acme.example']
    const outcome = await form.save()
    expect(outcome).toEqual({ kind: 'failed' })
    expect(form.errors.value).toEqual({ advertiser_domains: 'Item 2: Enter a valid domain name.' })
    expect(form.formError.value).toBeNull()
    expect(form.model['advertiser_domains']).toEqual(['acme.example', 'shop.acme.example'])
    expect(api.entities.update).toHaveBeenCalledWith({
      profileId: 'p1',
      kind: 'brands',
      id: 7,
      original: brand,
      changes: { advertiser_domains: ['acme.example', 'shop.acme.example'] },
    })
  })

  it('checks required fields before sending anything', async () => {
    const api = fakeApi()
    const { form } = mountForm(null)
    expect(await form.save()).toEqual({ kind: 'failed' })
    expect(form.errors.value).toEqual({ name: 'Name is required' })
    expect(api.entities.create).not.toHaveBeenCalled()
  })

  it("on a conflict keeps mine with force, or takes the server's copy", async () => {
    const api = fakeApi()
    const server = { ...brand, name: 'Theirs', external_id: 'THEIRS' }
    api.entities.update.mockImplementationOnce(() =>
      Promise.resolve({ ok: true, value: { status: 'conflict', server, changedFields: ['external_id', 'name'] } }),
    )
    api.entities.update.mockImplementationOnce(() => Promise.resolve({ ok: true, value: { status: 'saved', entity: { ...server, name: 'Mine' } } }))
    const { form } = mountForm(brand)
    form.model['name'] = 'Mine'
    expect(await form.save()).toEqual({ kind: 'conflict' })
    expect(form.conflict.value).toEqual({ server, changedFields: ['external_id', 'name'], mine: { name: 'Mine' } })
    expect(await form.save(true)).toEqual({ kind: 'saved', entity: { ...server, name: 'Mine' } })
    expect(api.entities.update).toHaveBeenLastCalledWith({ profileId: 'p1', kind: 'brands', id: 7, original: brand, changes: { name: 'Mine' }, force: true })

    api.entities.update.mockImplementationOnce(() => Promise.resolve({ ok: true, value: { status: 'conflict', server, changedFields: ['name'] } }))
    form.model['name'] = 'Mine again'
    await form.save()
    await form.takeServer()
    expect(form.model['name']).toBe('Theirs')
    expect(form.model['external_id']).toBe('THEIRS')
    expect(form.original.value).toEqual(server)
    expect(form.conflict.value).toBeNull()
  })
  it('a draft save still on its way when the entity is created does not bring the draft back', async () => {
    const api = fakeApi()
    // The draft save answers only when told to: it is still in flight when the create returns.
    let answerSave: () => void = () => undefined
    const order: string[] = []
    api.drafts.save.mockImplementation(
      () =>
        new Promise<Outcome<null>>((resolve) => {
          answerSave = () => {
            order.push('save')
            resolve({ ok: true, value: null })
          }
        }),
    )
    api.drafts.discard.mockImplementation(() => {
      order.push('discard')
      return Promise.resolve({ ok: true, value: null })
    })
    api.entities.create.mockImplementation(() => Promise.resolve({ ok: true, value: { ...brand, id: 151, name: 'Trail Runners' } }))
    const drafts = useDraftsStore()
    const { form } = mountForm(null)
    form.model['name'] = 'Trail Runners'
    await nextTick()
    vi.advanceTimersByTime(DRAFT_DEBOUNCE_MS + 10)
    await vi.waitFor(() => expect(api.drafts.save).toHaveBeenCalledTimes(1))

    const saving = form.save()
    await vi.waitFor(() => expect(api.entities.create).toHaveBeenCalledTimes(1))
    // The create's answer is handled (and the form asks for the discard) before the draft save answers.
    for (let turn = 0; turn < 20; turn++) await Promise.resolve()
    answerSave()
    expect(await saving).toMatchObject({ kind: 'created' })
    await vi.waitFor(() => expect(order).toEqual(['save', 'discard']))
    expect(drafts.draftFor('brands', 'new')).toBeUndefined()
  })
})
