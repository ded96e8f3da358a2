// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { KeepAlive, defineComponent, h, nextTick, ref, type Component } from 'vue'
import { mount } from '@vue/test-utils'
import { useWhileActive } from '../../../../renderer/src/composables/useWhileActive'
import { useCommandWhile } from '../../../../renderer/src/composables/shell/useCommandWhile'
import { canRunCommand, runCommand, useCommand } from '../../../../renderer/src/shell/commands'

/** Two screens behind a KeepAlive that keeps `Kept` alive, as the shell keeps Reports; `shown` picks one. */
function shell(kept: Component) {
  const other = defineComponent({ name: 'Other', render: () => h('p', 'other') })
  const shown = ref<'kept' | 'other'>('kept')
  const wrapper = mount(
    defineComponent({
      setup: () => () => h(KeepAlive, { include: ['Kept'] }, [h(shown.value === 'kept' ? kept : other, { key: shown.value })]),
    }),
  )
  return { wrapper, shown }
}

describe('useWhileActive', () => {
  it('runs while its component is shown, stops while a KeepAlive holds it in the background, and for good at unmount', async () => {
    const events: string[] = []
    const kept = defineComponent({
      name: 'Kept',
      setup() {
        useWhileActive(() => {
          events.push('start')
          return () => events.push('stop')
        })
        return () => h('p', 'kept')
      },
    })
    const { wrapper, shown } = shell(kept)
    await nextTick()
    // Mounted inside a KeepAlive it is both mounted and activated: started once.
    expect(events).toEqual(['start'])
    shown.value = 'other'
    await nextTick()
    expect(events).toEqual(['start', 'stop'])
    shown.value = 'kept'
    await nextTick()
    expect(events).toEqual(['start', 'stop', 'start'])
    wrapper.unmount()
    expect(events).toEqual(['start', 'stop', 'start', 'stop'])
  })

  it('hands a kept view’s commands back while another screen is shown', async () => {
    const runs: string[] = []
    const kept = defineComponent({
      name: 'Kept',
      setup() {
        useCommand('runReport', () => void runs.push('run'))
        useCommandWhile(
          'find',
          () => true,
          () => void runs.push('find'),
        )
        return () => h('p', 'kept')
      },
    })
    const { wrapper, shown } = shell(kept)
    await nextTick()
    await nextTick()
    expect(canRunCommand('runReport') && canRunCommand('find')).toBe(true)
    shown.value = 'other'
    await nextTick()
    await nextTick()
    expect(canRunCommand('runReport')).toBe(false)
    expect(canRunCommand('find')).toBe(false)
    expect(runCommand('runReport')).toBe(false)
    shown.value = 'kept'
    await nextTick()
    await nextTick()
    expect(runCommand('runReport')).toBe(true)
    expect(runCommand('find')).toBe(true)
    expect(runs).toEqual(['run', 'find'])
    wrapper.unmount()
    await nextTick()
    expect(canRunCommand('runReport') || canRunCommand('find')).toBe(false)
  })
})
