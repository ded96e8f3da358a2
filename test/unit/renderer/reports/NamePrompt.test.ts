// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest'
import { defineComponent, h, ref } from 'vue'
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import { HIDDEN_CHARACTERS_SENTENCE } from '@contract'
import NamePrompt from '../../../../renderer/src/components/reports/NamePrompt.vue'

/** The name field of Save as and Rename checks a name by main's own rule (the contract's), before anything is sent. */
describe('the preset name prompt', () => {
  let wrapper: VueWrapper | null = null
  afterEach(() => {
    wrapper?.unmount()
    wrapper = null
  })

  async function prompt(): Promise<{ confirmed: string[]; type(text: string): Promise<void>; submit(): Promise<void> }> {
    const confirmed: string[] = []
    const show = ref(true)
    wrapper = mount(
      defineComponent({
        render: () => h(NamePrompt, { show: show.value, title: 'Save as preset', initial: '', error: null, onConfirm: (name: string) => confirmed.push(name) }),
      }),
      { attachTo: document.body },
    )
    await flushPromises()
    const input = () => document.querySelector<HTMLInputElement>('[data-test="name-input"] input') as HTMLInputElement
    return {
      confirmed,
      async type(text) {
        input().value = text
        input().dispatchEvent(new Event('input'))
        await flushPromises()
      },
      async submit() {
        document.querySelector('[data-test="name-prompt"] form')?.dispatchEvent(new Event('submit'))
        await flushPromises()
      },
    }
  }
  const errorText = () => document.querySelector('[data-test="name-error"]')?.textContent ?? null
  const okDisabled = () => (document.querySelector('[data-test="name-confirm"]') as HTMLButtonElement).disabled

  it('saves with a button that says Save, not OK', async () => {
    await prompt()
    expect(document.querySelector('[data-test="name-confirm"]')?.textContent?.trim()).toBe('Save')
  })

  it("refuses a name with a hidden character with main's sentence, and sends nothing", async () => {
    const form = await prompt()
    await form.type('Weekly \u202eUE')
    expect(errorText()).toBe(HIDDEN_CHARACTERS_SENTENCE)
    expect(okDisabled()).toBe(true)
    await form.submit()
    expect(form.confirmed).toEqual([])
  })

  it('sends a look-alike name in the form main keeps it', async () => {
    const form = await prompt()
    expect(okDisabled()).toBe(true)
    expect(errorText()).toBeNull()
    await form.type(' Weekly\u00a0\u2003EU ')
    expect(errorText()).toBeNull()
    expect(okDisabled()).toBe(false)
    await form.submit()
    expect(form.confirmed).toEqual(['Weekly EU'])
  })
})
