// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { defineComponent, h, nextTick, ref, type HTMLAttributes } from 'vue'
import { mount } from '@vue/test-utils'
import { useMenuButton } from '../../../../renderer/src/composables/useMenuButton'

/** A button and the composable, and a menu drawn the way Naive UI draws an open dropdown (teleported to the body). */
function harness() {
  let menu!: ReturnType<typeof useMenuButton>
  const wrapper = mount(
    defineComponent({
      setup() {
        const button = ref<HTMLElement | null>(null)
        menu = useMenuButton('Export the board as', button)
        return () => h('button', { ref: button, ...menu.buttonProps() }, 'Export as…')
      },
    }),
    { attachTo: document.body },
  )
  const items = menu.items([
    { key: 'pdf', label: 'PDF document', props: { 'data-test': 'pdf' } as HTMLAttributes },
    { key: 'png', label: 'PNG image' },
  ])
  const drawMenu = (): { element: HTMLElement; options: HTMLElement[] } => {
    const element = document.createElement('div')
    for (const [name, value] of Object.entries(menu.menuProps())) if (value !== undefined) element.setAttribute(name, String(value))
    const options = items.map((item) => {
      const option = document.createElement('div')
      for (const [name, value] of Object.entries(item.props ?? {})) option.setAttribute(name, String(value))
      option.textContent = String(item.label)
      element.append(option)
      return option
    })
    document.body.append(element)
    return { element, options }
  }
  return { wrapper, menu, items, drawMenu }
}

describe('a dropdown as a menu button', () => {
  it("gives the menu and its items their roles, keeping the items' own props", () => {
    const { menu, items, wrapper } = harness()
    expect(menu.menuProps()).toMatchObject({ role: 'menu', 'aria-label': 'Export the board as', tabindex: -1 })
    expect(items.map((item) => item.props)).toEqual([
      { 'data-test': 'pdf', role: 'menuitem', id: `${menu.menuProps().id}-pdf` },
      { role: 'menuitem', id: `${menu.menuProps().id}-png` },
    ])
    expect(wrapper.find('button').attributes()).toMatchObject({ 'aria-haspopup': 'menu', 'aria-expanded': 'false' })
    wrapper.unmount()
  })

  it('moves the focus into the open menu, names the item the arrows are on, and gives the focus back on close', async () => {
    const { menu, wrapper, drawMenu } = harness()
    const button = wrapper.find('button').element
    button.focus()
    const { element, options } = drawMenu()
    await menu.onShow(true)
    expect(document.activeElement).toBe(element)
    await nextTick()
    expect(wrapper.find('button').attributes()).toMatchObject({ 'aria-expanded': 'true', 'aria-controls': menu.menuProps().id })
    expect(menu.menuProps()['aria-activedescendant']).toBeUndefined()
    // Naive UI marks the item the arrow keys reached with a class.
    options[1]?.classList.add('n-dropdown-option-body--pending')
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(menu.menuProps()['aria-activedescendant']).toBe(options[1]?.id)
    options[1]?.classList.remove('n-dropdown-option-body--pending')
    options[0]?.classList.add('n-dropdown-option-body--pending')
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(menu.menuProps()['aria-activedescendant']).toBe(options[0]?.id)
    await menu.onShow(false)
    expect(document.activeElement).toBe(button)
    expect(menu.menuProps()['aria-activedescendant']).toBeUndefined()
    element.remove()
    wrapper.unmount()
  })
})
