// @vitest-environment happy-dom
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { defineComponent, h } from 'vue'
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { NDialogProvider } from 'naive-ui'
import type { ChangeRecordView, Entity, Outcome } from '@contract'
import EntityDrawer from '../../../../../renderer/src/components/entities/EntityDrawer.vue'
import { useEntitiesStore } from '../../../../../renderer/src/stores/entities'
import { setRows } from '../../../../../renderer/src/stores/entityMirror'
import { adUnitsSpec, agenciesSpec, brandsSpec, publishersSpec } from '../../fixtures/entitySpecs'

const publisher: Entity = { id: 1, name: 'Humongous Kids', url: 'https://humongous-kids.example', external_id: 'PUB-000001' }
const adUnits: Entity[] = [
  { id: 10, name: 'kids_footer_336x280', publisher: 1, size: '336x280' },
  { id: 11, name: 'fashion_top_728x90', publisher: 2, size: '728x90' },
  { id: 12, name: 'kids_newsletter_728x90', publisher: 1, size: '728x90' },
]

/** The bridge as the drawer uses it: the entity read again, no drafts, and the change log's answer given. */
function fakeApi(changes: ChangeRecordView[]) {
  const ok = <T>(value: T): Promise<Outcome<T>> => Promise.resolve({ ok: true, value })
  const api = {
    entities: {
      get: vi.fn((input: { id: unknown }) => ok(input.id === 1 ? publisher : (adUnits[0] as Entity))),
      mirror: vi.fn(),
      sync: vi.fn(),
    },
    drafts: { list: vi.fn(() => ok([])), save: vi.fn(() => ok(null)), discard: vi.fn(() => ok(null)) },
    changes: { list: vi.fn(() => ok({ total: changes.length, records: changes })) },
    onSyncProgress: () => () => undefined,
    onThrottled: () => () => undefined,
  }
  Object.defineProperty(window, 'api', { value: api, configurable: true })
  return api
}

function mountDrawer(entity: Entity, spec = publishersSpec) {
  return mount(
    defineComponent({
      render: () =>
        h(NDialogProvider, null, {
          default: () =>
            h(EntityDrawer, {
              editing: { entity, key: 1 },
              profileId: 'p1',
              spec,
              locked: null,
              optionsFor: () => [],
              title: (row: Entity | null) => String(row?.name ?? ''),
            }),
        }),
    }),
    { attachTo: document.body },
  )
}

const edit: ChangeRecordView = {
  change: 'c1',
  batch: 'b1',
  source: 'single',
  at: '2026-12-03T14:02:00.000Z',
  kind: 'publishers',
  id: 1,
  before: { id: 1, name: 'Humongous', url: 'https://humongous-kids.example' },
  after: { id: 1, name: 'Humongous Kids', url: 'https://humongous-kids.example' },
  outcome: 'applied',
  reason: null,
  reverted: false,
}

describe('the entity drawer: related items and when it was changed here', () => {
  beforeEach(() => {
    setActivePinia(createPinia())
    document.body.innerHTML = ''
    const store = useEntitiesStore()
    store.kinds = [publishersSpec, brandsSpec, adUnitsSpec, agenciesSpec]
    setRows(store.state('p1', 'publishers'), [publisher])
    setRows(store.state('p1', 'ad_units'), adUnits)
  })

  it("lists a publisher's ad units from the local lists, each a link that opens it", async () => {
    const api = fakeApi([edit])
    const wrapper = mountDrawer(publisher)
    await flushPromises()
    const related = document.querySelector('[data-test="related-items"]')
    expect(related?.textContent).toContain('Ad units (2)')
    const links = [...document.querySelectorAll<HTMLAnchorElement>('[data-test="related-link"]')]
    expect(links.map((link) => link.textContent?.trim())).toEqual(['kids_footer_336x280', 'kids_newsletter_728x90'])
    links[1]?.click()
    const drawer = wrapper.findComponent(EntityDrawer)
    expect(drawer.emitted('openRef')).toEqual([['ad_units', '12']])
    // The lists were not asked for again: what links them is read from the copies already here.
    expect(api.entities.mirror).not.toHaveBeenCalled()
    expect(api.entities.sync).not.toHaveBeenCalled()
    wrapper.unmount()
  })

  it("says when it was last changed here and which fields, from this connection's change log", async () => {
    const api = fakeApi([edit])
    const wrapper = mountDrawer(publisher)
    await flushPromises()
    expect(api.changes.list).toHaveBeenCalledWith({ profileId: 'p1', query: { kind: 'publishers', id: 1, outcome: 'applied', limit: 1 } })
    const changed = document.querySelector('[data-test="changed-here"]')
    expect(changed?.textContent).toMatch(/^Changed here .*2026.* — Name$/)
    wrapper.unmount()
  })

  it('says "Not changed here" when the log holds nothing of it; an ad unit links its publisher', async () => {
    fakeApi([])
    const wrapper = mountDrawer(adUnits[0] as Entity, adUnitsSpec)
    await flushPromises()
    expect(document.querySelector('[data-test="changed-here"]')?.textContent).toBe('Not changed here')
    expect(document.querySelector('[data-test="related-items"]')?.textContent).toContain('Publisher')
    expect(document.querySelector('[data-test="related-link"]')?.textContent?.trim()).toBe('Humongous Kids')
    wrapper.unmount()
  })
})
