// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createPinia, setActivePinia } from 'pinia'
import { effectScope, nextTick, ref } from 'vue'
import type { ExportEstimate, ExportOptions, ExportSource, Outcome } from '@contract'
import { useExportEstimate } from '../../../../renderer/src/composables/exports/useExportEstimate'
import { defaultForm, type ExportForm } from '../../../../renderer/src/domain/exports/options'
import { sampleDefinition } from '../../../support/channel-samples'

/** Main's answer: it names the keys it will split by (here its `auto` granularity for the dates). */
const answer = (keys: string[]): ExportEstimate => ({ cap: 1_000_000, othersRow: true, rules: [], rows: { count: 30, atLeast: false }, note: '30 rows.', keys })

function fakeApi() {
  const asked: ExportOptions[] = []
  const api = {
    exports: {
      estimate: vi.fn(({ options }: { options: ExportOptions }): Promise<Outcome<ExportEstimate>> => {
        asked.push(options)
        return Promise.resolve({ ok: true, value: answer(options.keys ?? ['granularity_day']) })
      }),
    },
    requests: { cancel: vi.fn(() => Promise.resolve({ ok: true, value: { cancelled: true } })) },
  }
  Object.defineProperty(window, 'api', { value: api, configurable: true })
  return asked
}

/** Lets the dialog's settle timer run and the answer arrive. */
async function settle(): Promise<void> {
  await vi.runAllTimersAsync()
  await nextTick()
}

describe('the Export… dialog’s estimate', () => {
  beforeEach(() => {
    setActivePinia(createPinia())
    vi.useFakeTimers()
  })
  afterEach(() => vi.useRealTimers())

  function setup(form: ExportForm) {
    const scope = effectScope()
    const source = ref<ExportSource | null>({ kind: 'definition', definition: { ...sampleDefinition, breakdown: [], granularity: 'auto' } })
    const shown = ref<ExportForm | null>(form)
    const estimate = scope.run(() => useExportEstimate(ref('p1'), source, shown, ref(true)))!
    return { scope, shown, estimate }
  }

  it('asks without keys when main chooses them, shows the keys it answers, and does not ask again for them', async () => {
    const asked = fakeApi()
    const { scope, shown, estimate } = setup(defaultForm({ ...sampleDefinition, breakdown: [], granularity: 'auto' }))
    expect(shown.value?.keys).toBeNull()
    await settle()
    expect(asked).toHaveLength(1)
    expect(asked[0]).not.toHaveProperty('keys')
    // The keys field now shows main's choice, and the estimate counts as the one for it.
    expect(shown.value?.keys).toEqual(['granularity_day'])
    expect(estimate.fresh.value).toBe(true)
    await settle()
    expect(asked).toHaveLength(1)

    // A choice of the user's own is sent as is and never overwritten.
    shown.value!.keys = ['country']
    await settle()
    expect(asked).toHaveLength(2)
    expect(asked[1]?.keys).toEqual(['country'])
    expect(shown.value?.keys).toEqual(['country'])
    scope.stop()
  })
})
