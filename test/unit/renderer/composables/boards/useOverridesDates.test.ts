import { afterEach, describe, expect, it, vi } from 'vitest'
import { effectScope, nextTick, ref } from 'vue'
import type { ResolvedRange, TimezoneRule } from '@contract'
import { useOverridesDates } from '../../../../../renderer/src/composables/boards/useOverridesDates'
import { formOfOverrides, type OverridesForm } from '../../../../../renderer/src/domain/boards/overrides'

const range = (start: string, end: string): ResolvedRange => ({ start, end, days: 7, timezone: 0 })

function setUp(resolve: (input: { start: string; end: string; timezone: TimezoneRule }) => Promise<ResolvedRange>) {
  const form = ref<OverridesForm | null>(null)
  const scope = effectScope()
  const dates = scope.run(() => useOverridesDates(form, resolve, 100))!
  return { form, dates, scope }
}

/** The debounce's delay passed, and main's answer settled. */
async function settle(): Promise<void> {
  await vi.advanceTimersByTimeAsync(100)
  await nextTick()
}

describe('useOverridesDates', () => {
  afterEach(() => vi.useRealTimers())

  it('shows the range the tokens stand for today, asked again (debounced) as they are typed', async () => {
    vi.useFakeTimers()
    const resolve = vi.fn((input: { start: string; end: string }) =>
      Promise.resolve(input.start === '-7d' ? range('2026-11-19', '2026-11-25') : range('2026-10-27', '2026-11-25')),
    )
    const { form, dates, scope } = setUp(resolve)
    form.value = formOfOverrides({ dates: { start: '-7d', end: '-1d' }, timezone: null, profileId: null })
    await settle()
    expect(resolve).toHaveBeenCalledWith({ start: '-7d', end: '-1d', timezone: { mode: 'os' }, reportTimezone: null })
    expect(dates.resolved.value?.start).toBe('2026-11-19')
    // Typed a character at a time: one question, for the last text.
    form.value.start = '-3'
    await nextTick()
    form.value.start = '-30'
    await nextTick()
    form.value.start = '-30d'
    await settle()
    expect(resolve).toHaveBeenCalledTimes(2)
    expect(dates.resolved.value?.start).toBe('2026-10-27')
    scope.stop()
  })

  it("says a token main cannot read, in the board's fixed offset when it has one, and nothing while the dates are off", async () => {
    vi.useFakeTimers()
    const resolve = vi.fn(() => Promise.reject(new Error('"-7x" is not a date: use today, yesterday, -7d or YYYY-MM-DD')))
    const { form, dates, scope } = setUp(resolve)
    form.value = { ...formOfOverrides({ dates: { start: '-7x', end: '-1d' }, timezone: { mode: 'fixed', offset: 2 }, profileId: null }) }
    await settle()
    expect(resolve).toHaveBeenCalledWith(expect.objectContaining({ timezone: { mode: 'fixed', offset: 2 } }))
    expect(dates.error.value).toContain('"-7x" is not a date')
    expect(dates.resolved.value).toBeNull()
    form.value.datesOn = false
    await settle()
    expect(dates.error.value).toBeNull()
    expect(resolve).toHaveBeenCalledTimes(1)
    scope.stop()
  })

  it('drops an answer to an older question', async () => {
    vi.useFakeTimers()
    const answers: Array<(value: ResolvedRange) => void> = []
    const resolve = vi.fn(() => new Promise<ResolvedRange>((done) => answers.push(done)))
    const { form, dates, scope } = setUp(resolve)
    form.value = formOfOverrides({ dates: { start: '-7d', end: '-1d' }, timezone: null, profileId: null })
    await settle()
    form.value.start = '-14d'
    await settle()
    answers[1]?.(range('2026-11-12', '2026-11-25'))
    await nextTick()
    answers[0]?.(range('2026-11-19', '2026-11-25'))
    await nextTick()
    expect(dates.resolved.value?.start).toBe('2026-11-12')
    scope.stop()
  })
})
