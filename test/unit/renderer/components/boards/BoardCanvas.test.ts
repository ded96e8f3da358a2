// @vitest-environment happy-dom
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { defineComponent, h } from 'vue'
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { NMessageProvider } from 'naive-ui'
import type { Board } from '@contract'
import BoardCanvas from '../../../../../renderer/src/components/boards/BoardCanvas.vue'

/** The canvas as the app mounts it: under the message provider its Export buttons report through. */
const mountCanvas = () =>
  mount(defineComponent({ render: () => h(NMessageProvider, null, { default: () => h(BoardCanvas, { name: 'Morning' }) }) }), { attachTo: document.body })

const board: Board = { name: 'Morning', description: '', savedAt: '2026-11-26T06:00:00.000Z', overrides: { dates: null, timezone: null }, tiles: [] }
const ok = <T>(value: T) => Promise.resolve({ ok: true, value })

/** The channels an open board calls; no connection is active, so nothing refreshes. */
function fakeApi() {
  const api = {
    boards: { open: vi.fn(() => ok({ board, tiles: [] })), list: vi.fn(() => ok({ boards: [], refused: [] })) },
    presets: { list: vi.fn(() => ok({ presets: [], refused: [] })) },
    alerts: { fired: vi.fn(() => ok({ alerts: [], total: 0 })) },
    requests: { cancel: vi.fn(() => ok(null)) },
  }
  Object.defineProperty(window, 'api', { value: api, configurable: true })
  return api
}

describe('presenting a board', () => {
  beforeEach(() => setActivePinia(createPinia()))

  it('shows the board alone with named controls, and Esc leaves', async () => {
    fakeApi()
    const wrapper = mountCanvas()
    await flushPromises()
    const canvas = wrapper.find('[data-test="board-canvas"]')
    expect(canvas.classes()).not.toContain('presenting')
    expect(wrapper.find('[data-test="board-add-tile"]').exists()).toBe(true)

    await wrapper.find('[data-test="board-present"]').trigger('click')
    await flushPromises()
    expect(canvas.classes()).toContain('presenting')
    expect(canvas.attributes('role')).toBe('region')
    expect(canvas.attributes('aria-label')).toBe('Presenting board Morning')
    // The editing controls go; what a presenter needs is named for a screen reader and says its key.
    expect(wrapper.find('[data-test="board-add-tile"]').exists()).toBe(false)
    expect(wrapper.find('[data-test="board-present"]').exists()).toBe(false)
    expect(wrapper.find('[data-test="board-interval"]').attributes('aria-label')).toBe('Auto-refresh interval')
    const leave = wrapper.find('[data-test="board-present-leave"]')
    expect(leave.text()).toBe('Leave presentation (Esc)')
    expect(leave.attributes('aria-keyshortcuts')).toBe('Escape')

    // Esc that closes an open menu (the interval's) stays in the presentation.
    const menu = document.createElement('div')
    menu.className = 'n-base-select-menu'
    // Drawn: it has a box (given here: happy-dom lays nothing out); a closed menu kept hidden has none.
    menu.getClientRects = () => [new DOMRect(0, 0, 100, 40)] as unknown as DOMRectList
    const closed = document.createElement('div')
    closed.className = 'n-base-select-menu'
    closed.getClientRects = () => [] as unknown as DOMRectList
    document.body.append(menu, closed)
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }))
    menu.remove()
    await flushPromises()
    expect(canvas.classes()).toContain('presenting')

    // Only the hidden one is left: Esc leaves.
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }))
    await flushPromises()
    expect(canvas.classes()).not.toContain('presenting')
    expect(wrapper.find('[data-test="board-add-tile"]').exists()).toBe(true)
    closed.remove()
    wrapper.unmount()
  })

  it('leaves with the Leave button too', async () => {
    fakeApi()
    const wrapper = mountCanvas()
    await flushPromises()
    await wrapper.find('[data-test="board-present"]').trigger('click')
    await flushPromises()
    await wrapper.find('[data-test="board-present-leave"]').trigger('click')
    expect(wrapper.find('[data-test="board-canvas"]').classes()).not.toContain('presenting')
    wrapper.unmount()
  })
})
