import { describe, expect, it } from 'vitest'
import { effectScope, nextTick, ref } from 'vue'
import { useDelayedFlag } from '../../../../renderer/src/composables/useDelayedFlag'
import { manualCallbacks } from '../../../support/manual-callbacks'

/** A flag over a source the test switches, on timers it fires by hand. */
function delayedFlag() {
  const clock = manualCallbacks()
  const source = ref(false)
  const scope = effectScope()
  const shown = scope.run(() => useDelayedFlag(() => source.value, 150, { set: clock.add, clear: clock.remove }))
  return { clock, source, scope, shown }
}

describe('useDelayedFlag', () => {
  it('turns on only after the delay, and off at once', async () => {
    const { clock, source, scope, shown } = delayedFlag()
    source.value = true
    await nextTick()
    expect(shown?.value).toBe(false)
    clock.run()
    expect(shown?.value).toBe(true)
    source.value = false
    await nextTick()
    expect(shown?.value).toBe(false)
    scope.stop()
  })

  it('never turns on for a wait shorter than the delay', async () => {
    const { clock, source, scope, shown } = delayedFlag()
    source.value = true
    await nextTick()
    source.value = false
    await nextTick()
    expect(clock.waiting.size).toBe(0)
    expect(shown?.value).toBe(false)
    scope.stop()
  })

  it('starts on after the delay when the source is on from the start, and stops waiting when its scope ends', () => {
    const clock = manualCallbacks()
    const scope = effectScope()
    const shown = scope.run(() => useDelayedFlag(() => true, 150, { set: clock.add, clear: clock.remove }))
    expect(shown?.value).toBe(false)
    expect(clock.waiting.size).toBe(1)
    scope.stop()
    expect(clock.waiting.size).toBe(0)
  })
})
