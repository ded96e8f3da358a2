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

  it('a create with an unknown outcome: its sentence and candidates shown; "It was created: it is N" settles that row', async () => {
    const listeners: Array<(event: Progress) => void> = []
    fakeApi(listeners)
    const reason = 'The answer to this create was lost, so AdOps Desk cannot tell whether the platform created the brand “DUPCHECK-1”: check the list.'
    const unknownRow = {
      row: 2,
      action: 'create' as const,
      id: null,
      changes: { name: [null, 'DUPCHECK-1'] as [null, string] },
      errors: [],
      outcome: { status: 'unknown' as const, id: null, reason, candidates: [{ id: 153, name: 'DUPCHECK-1' }] },
    }
    const rows = vi.fn(async (input: { outcomes?: string[] }) => ({
      ok: true as const,
      value: { total: 1, rows: input.outcomes?.includes('unknown') ? [unknownRow] : [] },
    }))
    const settle = vi.fn(async () => ({ ok: true as const, value: resumed }))
    const onBulkProgress = (listener: (event: Progress) => void) => {
      listeners.push(listener)
      return () => undefined
    }
    Object.defineProperty(window, 'api', { configurable: true, value: { bulk: { rows, settle }, onBulkProgress } })
    const wrapper = mount(PlanView, { props: { plan: null, spec: null }, attachTo: document.body })
    await wrapper.setProps({ plan: resumed })
    await flushPromises()
    for (const listener of listeners)
      listener({
        planId: 'resumed-1',
        batch: 'batch-1',
        done: 3,
        total: 3,
        counts: { applied: 2, conflict: 0, failed: 0, skipped: 0, cancelled: 0, unknown: 1 },
        finished: true,
        cancelled: false,
        error: null,
      })
    await flushPromises()
    expect(document.querySelector('[data-test="plan-progress"]')?.textContent).toContain('1 with an unknown outcome')
    const panel = document.querySelector('[data-test="plan-unknown"]')
    expect(panel?.textContent).toContain('Row 2: The answer to this create was lost')
    expect(document.querySelector('[data-test="plan-unknown-send"]')?.textContent).toContain('Send it again')
    document.querySelector<HTMLButtonElement>('[data-test="plan-unknown-created"]')?.click()
    await flushPromises()
    expect(settle).toHaveBeenCalledWith({ planId: 'resumed-1', row: 2, createdId: 153 })
    // Applying again until the run's progress says it ended: the choice is gone meanwhile.
    expect(document.querySelector('[data-test="plan-unknown"]')).toBeNull()
    wrapper.unmount()
  })
})
