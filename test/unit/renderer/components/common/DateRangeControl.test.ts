// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { defineComponent, h, nextTick, ref } from 'vue'
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import type { DateRangeTokens } from '../../../../../common/date-ranges'
import DateRangeControl from '../../../../../renderer/src/components/common/DateRangeControl.vue'
import DateRangeField from '../../../../../renderer/src/components/reports/DateRangeField.vue'
import { useReportsStore } from '../../../../../renderer/src/stores/reports'
import { sampleDefinition } from '../../../../support/channel-samples'
import { watchControls } from '../../../../../renderer/src/shell/accessible-controls'

/** The newcomer's walk was made on Monday 7 December 2026; the clock is set there (Date only). */
let stopNaming = (): void => undefined
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-12-07T10:00:00Z') })
  setActivePinia(createPinia())
  // The app names Naive UI's controls once for the whole page (main.ts); so does this test.
  stopNaming = watchControls(document)
})
afterEach(() => {
  stopNaming()
  vi.useRealTimers()
  document.body.innerHTML = ''
})

async function mountControl(start: string, end: string) {
  const tokens = ref<DateRangeTokens>({ start, end })
  const Host = defineComponent({
    render: () =>
      h(DateRangeControl, {
        modelValue: tokens.value,
        label: 'Dates',
        offset: 0,
        testId: 'date',
        'onUpdate:modelValue': (next: DateRangeTokens) => (tokens.value = next),
      }),
  })
  const wrapper = mount(Host, { attachTo: document.body })
  await flushPromises()
  return { wrapper, tokens }
}

const combobox = () => document.querySelector<HTMLElement>('[data-test="date-preset"] [role="combobox"]')
const shown = () => document.querySelector('[data-test="date-preset"]')?.textContent?.trim() ?? ''
const textBox = () => document.querySelector<HTMLInputElement>('[data-test="date-text"] input')

function pasteInto(input: HTMLInputElement, text: string): void {
  const event = new Event('paste', { bubbles: true, cancelable: true }) as ClipboardEvent
  Object.defineProperty(event, 'clipboardData', { value: { getData: (type: string) => (type === 'text/plain' ? text : '') } })
  input.dispatchEvent(event)
}
async function typeInto(input: HTMLInputElement, text: string): Promise<void> {
  input.value = text
  input.dispatchEvent(new Event('input', { bubbles: true }))
  await nextTick()
  input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }))
  await flushPromises()
}

describe('the date range control', () => {
  it('is one combobox named by its label, showing the preset and the days it stands for', async () => {
    await mountControl('-7d', '-1d')
    await flushPromises()
    // One combobox, and it has the name: the select's parts are not two comboboxes, one nameless.
    expect(document.querySelectorAll('[data-test="date-preset"] [role="combobox"]')).toHaveLength(1)
    expect(combobox()?.getAttribute('aria-label')).toBe('Dates')
    expect(combobox()?.getAttribute('aria-haspopup')).toBe('listbox')
    expect(shown()).toMatch(/^Last 7 days · .*30.*6/)
    expect(textBox()?.value).toBe('-7d to -1d')
    expect(textBox()?.getAttribute('aria-label')).toBe("Dates, typed as the API's tokens")
  })

  it('chooses a preset from the list, each option with its days', async () => {
    const { tokens } = await mountControl('-7d', '-1d')
    combobox()?.click()
    await flushPromises()
    const options = [...document.querySelectorAll('.n-base-select-option')].map((option) => option.textContent?.trim() ?? '')
    expect(options[0]).toMatch(/^Today · /)
    expect(options).toContainEqual(expect.stringMatching(/^Last month · .*1.*30/))
    const fourteen = [...document.querySelectorAll<HTMLElement>('.n-base-select-option')].find((option) => option.textContent?.startsWith('Last 14 days'))
    fourteen?.click()
    await flushPromises()
    expect(tokens.value).toEqual({ start: '-14d', end: '-1d' })
    expect(shown()).toMatch(/^Last 14 days · /)
    expect(textBox()?.value).toBe('-14d to -1d')
  })

  it('reads a pasted -14d as Last 14 days, and says so', async () => {
    const { tokens } = await mountControl('2026-11-01', '2026-11-30')
    await flushPromises()
    expect(shown()).toMatch(/^Custom range · /)
    const input = textBox()
    if (!input) throw new Error('no text box')
    pasteInto(input, '-14d')
    await flushPromises()
    expect(tokens.value).toEqual({ start: '-14d', end: '-1d' })
    expect(shown()).toMatch(/^Last 14 days · .*23.*6/)
    expect(document.querySelector('[data-test="date-understood"]')?.textContent).toMatch(/^Read as Last 14 days · .*23.*6/)
  })

  it('reads typed tokens on Enter, and says clearly what it did not understand', async () => {
    const { tokens } = await mountControl('-7d', '-1d')
    const input = textBox()
    if (!input) throw new Error('no text box')
    await typeInto(input, '-30days to yesterday')
    expect(tokens.value).toEqual({ start: '-30days', end: 'yesterday' })
    expect(shown()).toMatch(/^Last 30 days · /)
    await typeInto(input, '-7x')
    expect(tokens.value).toEqual({ start: '-30days', end: 'yesterday' })
    expect(document.querySelector('[data-test="date-problem"]')?.getAttribute('role')).toBe('alert')
    expect(document.querySelector('[data-test="date-problem"]')?.textContent).toContain('"-7x" is not a date: use YYYY-MM-DD, today')
  })
})

describe("Reports' Dates field", () => {
  it('names a pasted request’s -14d to yesterday "Last 14 days", not "Custom range"', async () => {
    const store = useReportsStore()
    store.definition = { ...sampleDefinition, dates: { start: '-14d', end: 'yesterday' } }
    mount(DateRangeField, { attachTo: document.body })
    await flushPromises()
    expect(document.querySelector('[data-test="date-preset"]')?.textContent?.trim()).toMatch(/^Last 14 days/)
  })
})
