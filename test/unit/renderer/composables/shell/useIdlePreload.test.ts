// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest'
import { defineComponent, h, nextTick, ref } from 'vue'
import { flushPromises, mount } from '@vue/test-utils'
import { useIdlePreload } from '../../../../../renderer/src/composables/shell/useIdlePreload'
import type { IdleScheduler } from '../../../../../renderer/src/lib/idle'
import { manualCallbacks } from '../../../../support/manual-callbacks'

function setUp(steps: Array<() => unknown>) {
  const callbacks = manualCallbacks()
  const idle: IdleScheduler = { request: callbacks.add, cancel: callbacks.remove }
  const ready = ref(false)
  const wrapper = mount(
    defineComponent({
      setup() {
        useIdlePreload(() => ready.value, steps, idle)
        return () => h('div')
      },
    }),
  )
  /** One idle moment: the waiting callback runs, and whatever it started settles. */
  const idleMoment = async () => {
    callbacks.run()
    await flushPromises()
  }
  return { ready, wrapper, idleMoment, waiting: callbacks.waiting }
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
