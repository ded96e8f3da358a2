// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createPinia, setActivePinia } from 'pinia'
import { effectScope, ref } from 'vue'
import type { Outcome, Profile } from '@contract'
import { useValueSearch, type ValueOption } from '../../../../../renderer/src/composables/reports/useValueSearch'
import { useReportsStore } from '../../../../../renderer/src/stores/reports'
import { useWorkspaceStore } from '../../../../../renderer/src/stores/workspace'
import { fakeReportsApi } from '../../reports/fake-api'

describe('useValueSearch', () => {
  beforeEach(() => setActivePinia(createPinia()))
  afterEach(() => vi.useRealTimers())

  async function setup() {
    const api = fakeReportsApi()
    useWorkspaceStore().active = { id: 'p1', name: 'Sandbox', defaultProject: 'demo', defaultSlicer: 'supply', isDemo: false } as Profile
    await useReportsStore().start()
    const answers: ((outcome: Outcome<ValueOption[]>) => void)[] = []
    api.reports.values.mockImplementation(() => new Promise<Outcome<ValueOption[]>>((resolve) => answers.push(resolve)) as never)
    vi.useFakeTimers()
    const scope = effectScope()
    const search = scope.run(() => useValueSearch(ref('country'), { minLength: 2, limit: 50, editingFilter: ref(null) }))!
    return { api, answers, search, scope }
  }

  it('asks once per burst of typing, cancels the call still out when typing goes on, and shows only the newest answer', async () => {
    const { api, answers, search, scope } = await setup()
    search.search('F')
    search.search('FR')
    search.search('FRA')
    await vi.runAllTimersAsync()
    expect(api.reports.values).toHaveBeenCalledTimes(1)
    expect(api.reports.values.mock.calls[0]).toEqual([expect.objectContaining({ text: 'FRA', key: 'country', limit: 50 })])
    expect(search.answeredFor.value).toBeNull()
    const firstId = (api.reports.values.mock.calls[0] as unknown as [{ requestId: string }])[0].requestId
    expect(search.loading.value).toBe(true)

    search.search('GER')
    await vi.runAllTimersAsync()
    expect(api.requests.cancel).toHaveBeenCalledWith({ requestId: firstId })
    answers[1]!({ ok: true, value: [{ value: 'DE', name: 'Germany' }] })
    answers[0]!({ ok: true, value: [{ value: 'FR', name: 'France' }] })
    await vi.runAllTimersAsync()
    expect(search.results.value).toEqual([{ value: 'DE', name: 'Germany' }])
    // The results say which text they answer: the newest, never the one cancelled.
    expect(search.answeredFor.value).toBe('GER')
    expect(search.names.value).toEqual({ DE: 'Germany' })
    expect(search.loading.value).toBe(false)
    scope.stop()
  })

  it('shows a failure as a sentence, whatever the bridge threw', async () => {
    const { api, search, scope } = await setup()
    api.reports.values.mockImplementation(() => Promise.reject('The connection was lost.') as never)
    search.search('FR')
    await vi.runAllTimersAsync()
    expect(search.error.value).toBe('The connection was lost.')
    expect(search.results.value).toEqual([])
    expect(search.answeredFor.value).toBe('FR')
    scope.stop()
  })
})
