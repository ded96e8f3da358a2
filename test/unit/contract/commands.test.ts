import { describe, expect, it } from 'vitest'
import { acceleratorMatches, describeAccelerator, menuCommandIds, menuCommands, type KeyPress } from '@contract'

const press = (key: string, held: Partial<Omit<KeyPress, 'key'>> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...held,
})

describe('the command list', () => {
  it('describes every command id once', () => {
    expect(menuCommands.map((command) => command.id).sort()).toEqual([...menuCommandIds].sort())
  })

  it('keeps bare keys out of accelerators: a menu would take them from every text field', () => {
    for (const command of menuCommands) {
      if (command.accelerator === null) continue
      expect(command.accelerator, command.id).toMatch(/^(F\d+|.*(CmdOrCtrl|Ctrl|Cmd|Alt)\+.+)$/)
    }
    expect(menuCommands.find((command) => command.id === 'keyboardShortcuts')?.pageKey).toBe('?')
  })
})

describe('acceleratorMatches', () => {
  it('reads CmdOrCtrl as Cmd on a Mac and Ctrl elsewhere', () => {
    expect(acceleratorMatches('CmdOrCtrl+K', press('k', { metaKey: true }), true)).toBe(true)
    expect(acceleratorMatches('CmdOrCtrl+K', press('k', { ctrlKey: true }), true)).toBe(false)
    expect(acceleratorMatches('CmdOrCtrl+K', press('k', { ctrlKey: true }), false)).toBe(true)
    expect(acceleratorMatches('CmdOrCtrl+K', press('k', { metaKey: true }), false)).toBe(false)
  })

  it('needs exactly the modifiers named, and compares keys regardless of case', () => {
    expect(acceleratorMatches('CmdOrCtrl+Shift+C', press('C', { ctrlKey: true, shiftKey: true }), false)).toBe(true)
    expect(acceleratorMatches('CmdOrCtrl+Shift+C', press('c', { ctrlKey: true }), false)).toBe(false)
    expect(acceleratorMatches('CmdOrCtrl+C', press('c', { ctrlKey: true, shiftKey: true }), false)).toBe(false)
    expect(acceleratorMatches('CmdOrCtrl+Enter', press('Enter', { ctrlKey: true }), false)).toBe(true)
    expect(acceleratorMatches('F1', press('F1'), false)).toBe(true)
    expect(acceleratorMatches('F1', press('F1', { altKey: true }), false)).toBe(false)
  })
})

describe('describeAccelerator', () => {
  it("writes keys as each platform's menus do", () => {
    expect(describeAccelerator('CmdOrCtrl+Shift+C', true)).toBe('⇧⌘C')
    expect(describeAccelerator('CmdOrCtrl+Shift+C', false)).toBe('Ctrl+Shift+C')
    expect(describeAccelerator('CmdOrCtrl+Enter', true)).toBe('⌘↩')
    expect(describeAccelerator('CmdOrCtrl+Enter', false)).toBe('Ctrl+Enter')
    expect(describeAccelerator('F1', false)).toBe('F1')
  })
})
