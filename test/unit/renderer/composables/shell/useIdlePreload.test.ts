// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest'
import { defineComponent, h, nextTick, ref } from 'vue'
import { flushPromises, mount } from '@vue/test-utils'
import { PRELOAD_QUIET_MS, useIdlePreload } from '../../../../../renderer/src/composables/shell/useIdlePreload'
import type { Timers } from '../../../../../renderer/src/lib/timers'
import type { IdleScheduler } from '../../../../../renderer/src/lib/idle'
import { manualCallbacks } from '../../../../support/manual-callbacks'

function setUp(steps: Array<() => unknown>, sinceInput = () => Number.POSITIVE_INFINITY) {
  const callbacks = manualCallbacks()
  const idle: IdleScheduler = { request: callbacks.add, cancel: callbacks.remove }
  const ready = ref(false)
  const waits: Array<{ callback: () => void; ms: number; cancelled: boolean }> = []
  const timers: Timers = {
    set: (callback, ms) => waits.push({ callback, ms, cancelled: false }) - 1,
    clear: (handle) => void ((waits[handle] as { cancelled: boolean }).cancelled = true),
  }
  const wrapper = mount(
    defineComponent({
      setup() {
        useIdlePreload(() => ready.value, steps, idle, { sinceInput }, timers)
        return () => h('div')
      },
    }),
  )
  /** One idle moment: the waiting callback runs, and whatever it started settles. */
  const idleMoment = async () => {
    callbacks.run()
    await flushPromises()
  }
  return { ready, wrapper, idleMoment, waiting: callbacks.waiting, waits }
}

describe('useIdlePreload', () => {
  it('waits for the shell to be ready, then runs one step per idle moment, each after the last has settled', async () => {
    let finishList: () => void = () => undefined
    const list = vi.fn(() => new Promise<void>((resolve) => (finishList = resolve)))
    const code = vi.fn(() => Promise.resolve())
    const { ready, idleMoment, waiting } = setUp([list, code])
    expect(waiting.size).toBe(0)
    ready.value = true
    await nextTick()
    expect(list).not.toHaveBeenCalled()
    await idleMoment()
    expect(list).toHaveBeenCalledTimes(1)
    // The list has not come back: the code waits, even through idle moments.
    await idleMoment()
    expect(code).not.toHaveBeenCalled()
    finishList()
    await flushPromises()
    await idleMoment()
    expect(code).toHaveBeenCalledTimes(1)
    expect(waiting.size).toBe(0)
  })

  it('goes on past a step that fails, and runs once however often the shell turns ready', async () => {
    const failing = vi.fn(() => Promise.reject(new Error('chunk not found')))
    const throwing = vi.fn(() => {
      throw new Error('no bridge')
    })
    const last = vi.fn()
    const { ready, idleMoment } = setUp([failing, throwing, last])
    ready.value = true
    await nextTick()
    for (let moment = 0; moment < 3; moment++) await idleMoment()
    expect([failing, throwing, last].map((step) => step.mock.calls.length)).toEqual([1, 1, 1])
    ready.value = false
    await nextTick()
    ready.value = true
    await nextTick()
    await idleMoment()
    expect(failing).toHaveBeenCalledTimes(1)
  })

  it('waits for the user to pause: an idle moment between keystrokes runs no step', async () => {
    let since = 200
    const step = vi.fn()
    const { ready, idleMoment, waiting, waits, wrapper } = setUp([step], () => since)
    ready.value = true
    await nextTick()
    await idleMoment()
    // Typed 200 ms ago: the step waits out the rest of the pause asked for, then an idle moment.
    expect(step).not.toHaveBeenCalled()
    expect(waits.map((wait) => wait.ms)).toEqual([PRELOAD_QUIET_MS - 200])
    expect(waiting.size).toBe(0)
    // A key pressed meanwhile: the next idle moment waits again.
    since = 50
    waits[0]?.callback()
    await idleMoment()
    expect(step).not.toHaveBeenCalled()
    expect(waits.map((wait) => wait.ms)).toEqual([PRELOAD_QUIET_MS - 200, PRELOAD_QUIET_MS - 50])
    since = PRELOAD_QUIET_MS
    waits[1]?.callback()
    await idleMoment()
    expect(step).toHaveBeenCalledTimes(1)
    // A wait under way is cancelled with the shell.
    wrapper.unmount()
    expect(waits.every((wait) => !wait.cancelled)).toBe(true)
  })

  it('cancels a wait for a pause when the shell is gone', async () => {
    const step = vi.fn()
    const { ready, idleMoment, waits, wrapper } = setUp([step], () => 0)
    ready.value = true
    await nextTick()
    await idleMoment()
    expect(waits).toHaveLength(1)
    wrapper.unmount()
    expect(waits[0]?.cancelled).toBe(true)
    waits[0]?.callback()
    await flushPromises()
    expect(step).not.toHaveBeenCalled()
  })

  it('does nothing more once the shell is gone', async () => {
    const step = vi.fn()
    const { ready, wrapper, waiting } = setUp([step])
    ready.value = true
    await nextTick()
    expect(waiting.size).toBe(1)
    wrapper.unmount()
    expect(waiting.size).toBe(0)
  })
})
