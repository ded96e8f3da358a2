// @vitest-environment happy-dom
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import type { Outcome, Profile } from '@contract'
import WelcomeView from '../../../../renderer/src/views/WelcomeView.vue'
import { useNavigationStore } from '../../../../renderer/src/stores/navigation'

const demo = { id: 'demo', name: 'Demo workspace', isDemo: true } as Profile

/** A window.api whose workspace opens only when the test says so. */
function slowWorkspace() {
  let finish: (outcome: Outcome<Profile>) => void = () => undefined
  const activate = vi.fn(
    () =>
      new Promise<Outcome<Profile>>((resolve) => {
        finish = resolve
      }),
  )
  Object.defineProperty(window, 'api', { value: { workspace: { activate } }, configurable: true })
  return { activate, open: () => finish({ ok: true, value: demo }) }
}

describe('the welcome screen', () => {
  beforeEach(() => setActivePinia(createPinia()))

  it('lands on Entities once the demo is ready when the user waited', async () => {
    const workspace = slowWorkspace()
    const navigation = useNavigationStore()
    navigation.open('reports')
    const wrapper = mount(WelcomeView)
    await wrapper.find('[data-test="open-demo"]').trigger('click')
    workspace.open()
    await flushPromises()
    expect(navigation.section).toBe('entities')
    wrapper.unmount()
  })

  it('keeps the section the user chose while the demo was opening', async () => {
    const workspace = slowWorkspace()
    const navigation = useNavigationStore()
    const wrapper = mount(WelcomeView)
    await wrapper.find('[data-test="open-demo"]').trigger('click')
    expect(workspace.activate).toHaveBeenCalled()
    // The user clicks Reports in the rail before the demo answers.
    navigation.open('reports')
    workspace.open()
    await flushPromises()
    expect(navigation.section).toBe('reports')
    wrapper.unmount()
  })
})
