// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest'
import { defineComponent, h } from 'vue'
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { NDialogProvider, NMessageProvider } from 'naive-ui'
import BoardList from '../../../../../renderer/src/components/boards/BoardList.vue'

afterEach(() => {
  document.body.innerHTML = ''
})

describe('BoardList', () => {
  it('asks a new board’s name with an example of a board, and a button that says what it does', async () => {
    setActivePinia(createPinia())
    const wrapper = mount(
      defineComponent({ render: () => h(NMessageProvider, null, { default: () => h(NDialogProvider, null, { default: () => h(BoardList) }) }) }),
      { attachTo: document.body },
    )
    document.querySelector<HTMLButtonElement>('[data-test="board-new"]')?.click()
    await flushPromises()
    const input = document.querySelector<HTMLInputElement>('[data-test="name-input"] input')
    expect(input?.placeholder).toBe('Board name, e.g. Monday delivery')
    expect(document.querySelector('[data-test="name-confirm"]')?.textContent?.trim()).toBe('Create board')
    wrapper.unmount()
  })
})
