// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import ShellRail from '../../../../../renderer/src/components/shell/ShellRail.vue'
import { handleCommand } from '../../../../../renderer/src/shell/commands'
import { useAppStore } from '../../../../../renderer/src/stores/app'
import { useExportsStore } from '../../../../../renderer/src/stores/exports'
import { useNavigationStore } from '../../../../../renderer/src/stores/navigation'

/** A bridge that answers every call with a refusal and every subscription with nothing: the rail only needs to draw. */
function quietApi(): void {
  const refusal = () => Promise.resolve({ ok: false, error: { code: 'unavailable', message: 'Not in this test.' } })
  const namespace = new Proxy({}, { get: () => refusal })
  const api = new Proxy({}, { get: (_target, key) => (String(key).startsWith('on') ? () => () => undefined : namespace) })
  Object.defineProperty(window, 'api', { value: api, configurable: true })
}

let wrapper: VueWrapper | null = null
const mountRail = async (): Promise<VueWrapper> => {
  wrapper = mount(ShellRail, { attachTo: document.body, global: { stubs: { WorkspaceSwitcher: true, ExportJobsPanel: true } } })
  await flushPromises()
  return wrapper
}
const railItems = (rail: VueWrapper): HTMLElement[] => [...rail.get('[data-test="rail"]').element.querySelectorAll<HTMLElement>('[role="menuitem"]')]
const nameOf = (element: Element): string => element.getAttribute('aria-label') ?? element.textContent?.trim() ?? ''

describe('the rail', () => {
  beforeEach(() => {
    setActivePinia(createPinia())
    quietApi()
  })
  afterEach(() => {
    wrapper?.unmount()
    wrapper = null
  })

  it('shows the command palette and its keys where a user sees them, the keys said apart from the name', async () => {
    const rail = await mountRail()
    const button = rail.get('[data-test="palette-open"]')
    expect(button.attributes('aria-keyshortcuts')).toBe('Control+K')
    expect(button.get('kbd').text()).toBe('Ctrl+K')
    expect(button.get('kbd').attributes('aria-hidden')).toBe('true')
    expect(button.attributes('aria-label')).toBeUndefined()
    // The name a screen reader reads is the button's text without the hidden keys.
    const spoken = [...button.element.childNodes]
      .filter((node) => !(node instanceof HTMLElement && node.getAttribute('aria-hidden') === 'true'))
      .map((node) => node.textContent)
      .join('')
      .trim()
    expect(spoken).toBe('Search and commands')
    let opened = 0
    const remove = handleCommand('commandPalette', () => void (opened += 1))
    await button.trigger('click')
    expect(opened).toBe(1)
    remove()
  })

  it('says ⌘K on a Mac', async () => {
    useAppStore().platform = 'darwin'
    const rail = await mountRail()
    expect(rail.get('[data-test="palette-open"]').attributes('aria-keyshortcuts')).toBe('Meta+K')
    expect(rail.get('[data-test="palette-open"] kbd').text()).toBe('⌘K')
  })

  it('is one tab stop whose items the arrow keys move through, Home and End to the ends', async () => {
    const rail = await mountRail()
    const items = railItems(rail)
    expect(items.map(nameOf)).toEqual(['Entities', 'Reports', 'Connections', 'Settings', 'Schedules', 'Alerts', 'Boards', 'Analysis', 'Change log', 'Exports'])
    // One tab stop: the section shown.
    expect(items.filter((item) => item.tabIndex === 0).map(nameOf)).toEqual(['Entities'])
    const first = items[0] as HTMLElement
    first.focus()
    first.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }))
    expect(nameOf(document.activeElement as Element)).toBe('Reports')
    await flushPromises()
    expect(items.filter((item) => item.tabIndex === 0).map(nameOf)).toEqual(['Reports'])
    ;(document.activeElement as HTMLElement).dispatchEvent(new KeyboardEvent('keydown', { key: 'End', bubbles: true }))
    expect(nameOf(document.activeElement as Element)).toBe('Exports')
    ;(document.activeElement as HTMLElement).dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }))
    expect(nameOf(document.activeElement as Element)).toBe('Entities')
    ;(document.activeElement as HTMLElement).dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowUp', bubbles: true }))
    expect(nameOf(document.activeElement as Element)).toBe('Exports')
    ;(document.activeElement as HTMLElement).dispatchEvent(new KeyboardEvent('keydown', { key: 'Home', bubbles: true }))
    expect(nameOf(document.activeElement as Element)).toBe('Entities')
  })

  it('opens the focused item on Enter: a section, or the Exports list over it', async () => {
    const rail = await mountRail()
    const items = railItems(rail)
    const alerts = items.find((item) => nameOf(item) === 'Alerts') as HTMLElement
    alerts.focus()
    alerts.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }))
    await flushPromises()
    expect(useNavigationStore().section).toBe('alerts')
    // The tab stop follows the section shown.
    expect(
      railItems(rail)
        .filter((item) => item.tabIndex === 0)
        .map(nameOf),
    ).toEqual(['Alerts'])
    const exports = items.find((item) => nameOf(item) === 'Exports') as HTMLElement
    exports.focus()
    exports.dispatchEvent(new KeyboardEvent('keydown', { key: ' ', bubbles: true }))
    expect(useExportsStore().panelOpen).toBe(true)
    expect(useNavigationStore().section).toBe('alerts')
  })
})
