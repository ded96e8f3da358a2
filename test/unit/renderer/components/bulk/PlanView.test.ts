// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import type { EventPayload, PlanSummary } from '@contract'
import PlanView from '../../../../../renderer/src/components/bulk/PlanView.vue'

type Progress = EventPayload<'onBulkProgress'>

const resumed: PlanSummary = {
  planId: 'resumed-1',
  kind: 'brands',
  source: 'import',
  title: 'Import of brands.csv',
  counts: { create: 0, update: 3, delete: 0, unchanged: 0, error: 0 },
  problems: [],
  total: 3,
  fileName: null,
  columns: [],
  match: null,
  applying: true,
}

function fakeApi(listeners: Array<(event: Progress) => void>) {
  const rows = vi.fn(async () => ({ ok: true as const, value: { total: 3, rows: [] } }))
  const onBulkProgress = (listener: (event: Progress) => void) => {
    listeners.push(listener)
    return () => undefined
  }
  Object.defineProperty(window, 'api', { configurable: true, value: { bulk: { rows }, onBulkProgress } })
}

afterEach(() => {
  document.body.innerHTML = ''
})

describe('PlanView', () => {
  it('shows a resumed batch applying from the start: Apply disabled, Cancel offered, the progress shown before its first event', async () => {
    const listeners: Array<(event: Progress) => void> = []
    fakeApi(listeners)
    const wrapper = mount(PlanView, { props: { plan: null, spec: null }, attachTo: document.body })
    await wrapper.setProps({ plan: resumed })
    await flushPromises()
    const apply = document.querySelector<HTMLButtonElement>('[data-test="plan-apply"]')
    expect(apply?.disabled).toBe(true)
    expect(document.querySelector('[data-test="plan-cancel"]')).not.toBeNull()
    expect(document.querySelector('[data-test="plan-progress"]')?.textContent).toContain('Applying')

    for (const listener of listeners)
      listener({
        planId: 'resumed-1',
        batch: 'batch-1',
        done: 3,
        total: 3,
        counts: { applied: 3, conflict: 0, failed: 0, skipped: 0, cancelled: 0, unknown: 0 },
        finished: true,
        cancelled: false,
        error: null,
      })
    await flushPromises()
    expect(document.querySelector('[data-test="plan-progress"]')?.textContent).toContain('3 of 3 done: 3 applied, 0 conflicts, 0 failed (finished)')
    expect(document.querySelector('[data-test="plan-apply"]')).toBeNull()
    wrapper.unmount()
  })
})
