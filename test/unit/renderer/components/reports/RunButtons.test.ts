// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { mount } from '@vue/test-utils'
import RunButtons from '../../../../../renderer/src/components/reports/RunButtons.vue'

/** The text a screen reader reads as the button's name: its text without what is hidden from it. */
function spokenText(element: Element): string {
  const copy = element.cloneNode(true) as Element
  for (const hidden of copy.querySelectorAll('[aria-hidden="true"]')) hidden.remove()
  return (copy.textContent ?? '').replace(/\s+/g, ' ').trim()
}

describe('the Run button', () => {
  it('is named "Run" and gives its shortcut through aria-keyshortcuts, the hint shown but hidden from screen readers', () => {
    const wrapper = mount(RunButtons, { props: { running: null, blocker: null, last: null, label: 'Run' } })
    const run = wrapper.get('[data-test="run"]')
    expect(run.element.tagName).toBe('BUTTON')
    expect(spokenText(run.element)).toBe('Run')
    expect(run.attributes('aria-keyshortcuts')).toBe('Control+Enter')
    expect(run.text()).toContain('Ctrl ↵')
    wrapper.unmount()
  })
})
