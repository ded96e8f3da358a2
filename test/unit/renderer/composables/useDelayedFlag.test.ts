import { describe, expect, it } from 'vitest'
import { effectScope, nextTick, ref } from 'vue'
import { useDelayedFlag, type Timers } from '../../../../renderer/src/composables/useDelayedFlag'

/** Timers the test fires by hand. */
function manualTimers() {
  const waiting = new Map<number, () => void>()
  let next = 1
  const timers: Timers = {
    set: (callback) => (waiting.set(next, callback), next++),
    clear: (handle) => void waiting.delete(handle),
  }
  return { timers, fire: () => [...waiting].forEach(([handle, callback]) => (waiting.delete(handle), callback())), waiting }
}

describe('useDelayedFlag', () => {
  it('turns on only after the delay, and off at once', async () => {
    const clock = manualTimers()
    const source = ref(false)
    const scope = effectScope()
    const shown = scope.run(() => useDelayedFlag(() => source.value, 150, clock.timers))
    source.value = true
    await nextTick()
    expect(shown?.value).toBe(false)
    clock.fire()
    expect(shown?.value).toBe(true)
    source.value = false
    await nextTick()
    expect(shown?.value).toBe(false)
    scope.stop()
  })

  it('never turns on for a wait shorter than the delay', async () => {
    const clock = manualTimers()
    const source = ref(false)
    const scope = effectScope()
    const shown = scope.run(() => useDelayedFlag(() => source.value, 150, clock.timers))
    source.value = true
    await nextTick()
    source.value = false
    await nextTick()
    expect(clock.waiting.size).toBe(0)
    expect(shown?.value).toBe(false)
    scope.stop()
  })

  it('starts on after the delay when the source is on from the start, and stops waiting when its scope ends', () => {
    const clock = manualTimers()
    const scope = effectScope()
    const shown = scope.run(() => useDelayedFlag(() => true, 150, clock.timers))
    expect(shown?.value).toBe(false)
    expect(clock.waiting.size).toBe(1)
    scope.stop()
    expect(clock.waiting.size).toBe(0)
  })
})
