// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { defineComponent, h, nextTick, ref } from 'vue'
import { mount } from '@vue/test-utils'
import type { KeyPress } from '@contract'
import { commandForKey, isTextField, type KeyContext } from '../../../../renderer/src/composables/shell/useMenuCommands'
import { useCommandWhile } from '../../../../renderer/src/composables/shell/useCommandWhile'
import { canRunCommand, runCommand } from '../../../../renderer/src/shell/commands'

const press = (key: string, held: Partial<Omit<KeyPress, 'key'>> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...held,
})
const web: KeyContext = { nativeMenu: false, isMac: false, inTextField: false }

describe('commandForKey', () => {
  it('finds the menu accelerators where the page binds them, Ctrl elsewhere and Cmd on a Mac', () => {
    expect(commandForKey(press('k', { ctrlKey: true }), web)).toBe('commandPalette')
    expect(commandForKey(press('Enter', { ctrlKey: true }), web)).toBe('runReport')
    expect(commandForKey(press('2', { ctrlKey: true }), web)).toBe('goToSection2')
    expect(commandForKey(press('C', { ctrlKey: true, shiftKey: true }), web)).toBe('switchConnection')
    expect(commandForKey(press('F1'), web)).toBe('keyboardShortcuts')
    expect(commandForKey(press('k', { metaKey: true }), { ...web, isMac: true })).toBe('commandPalette')
    expect(commandForKey(press('k', { metaKey: true }), web)).toBeNull()
  })

  it('keeps accelerators in text fields (Ctrl+S saves from a form) but not bare keys', () => {
    expect(commandForKey(press('s', { ctrlKey: true }), { ...web, inTextField: true })).toBe('save')
    expect(commandForKey(press('?', { shiftKey: true }), web)).toBe('keyboardShortcuts')
    expect(commandForKey(press('?', { shiftKey: true }), { ...web, inTextField: true })).toBeNull()
    expect(commandForKey(press('?', { ctrlKey: true, shiftKey: true }), web)).toBeNull()
  })

  it('leaves accelerators to a native menu, but still binds the bare keys no menu can own', () => {
    const electron = { ...web, nativeMenu: true }
    expect(commandForKey(press('k', { ctrlKey: true }), electron)).toBeNull()
    expect(commandForKey(press('F1'), electron)).toBeNull()
    expect(commandForKey(press('?', { shiftKey: true }), electron)).toBe('keyboardShortcuts')
  })

  it('ignores keys that are no command, and extra modifiers', () => {
    expect(commandForKey(press('x', { ctrlKey: true }), web)).toBeNull()
    expect(commandForKey(press('k', { ctrlKey: true, altKey: true }), web)).toBeNull()
    expect(commandForKey(press('k'), web)).toBeNull()
  })
})

describe('isTextField', () => {
  it('tells typing fields from other controls', () => {
    const make = (html: string): Element => {
      const holder = document.createElement('div')
      holder.innerHTML = html
      return holder.firstElementChild as Element
    }
    expect(isTextField(make('<input type="text">'))).toBe(true)
    expect(isTextField(make('<input>'))).toBe(true)
    expect(isTextField(make('<input type="search">'))).toBe(true)
    expect(isTextField(make('<textarea></textarea>'))).toBe(true)
    expect(isTextField(make('<input type="checkbox">'))).toBe(false)
    expect(isTextField(make('<button>Run</button>'))).toBe(false)
    expect(isTextField(null)).toBe(false)
  })
})

describe('useCommandWhile', () => {
  it('handles the command only while the condition holds, and not after unmount', async () => {
    const editing = ref(false)
    let saved = 0
    const Screen = defineComponent({
      setup() {
        useCommandWhile(
          'save',
          () => editing.value,
          () => void saved++,
        )
        return () => h('div')
      },
    })
    const wrapper = mount(Screen)
    expect(canRunCommand('save')).toBe(false)
    expect(runCommand('save')).toBe(false)
    editing.value = true
    await nextTick()
    expect(canRunCommand('save')).toBe(true)
    expect(runCommand('save')).toBe(true)
    expect(saved).toBe(1)
    wrapper.unmount()
    expect(canRunCommand('save')).toBe(false)
  })
})
