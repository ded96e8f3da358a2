/**
 * The app's commands: what the application menu, the command palette and the keyboard
 * shortcuts overlay offer. One list, so each shortcut is written once: main builds the menu
 * from it (Electron's accelerators), the page lists the same labels and keys, and where the
 * host has no menu (the web host, `capabilities.nativeMenu` false) the page binds the keys
 * itself with `acceleratorMatches`.
 */
import { z } from 'zod'

export const menuCommandIds = [
  'newEntity',
  'save',
  'export',
  'runReport',
  'switchConnection',
  'refresh',
  'find',
  'commandPalette',
  'goToSection1',
  'goToSection2',
  'goToSection3',
  'goToSection4',
  'toggleTheme',
  'keyboardShortcuts',
  'openLogsFolder',
  'about',
] as const
export const menuCommandIdSchema = z.enum(menuCommandIds)
export type MenuCommandId = z.infer<typeof menuCommandIdSchema>

/** Headings of the shortcuts overlay, in the order the menu bar shows them. */
export type MenuCommandGroup = 'File' | 'Edit' | 'View' | 'Go' | 'Help'

export interface MenuCommand {
  id: MenuCommandId
  /** As a menu item says it (Title Case, "…" when it asks for more before acting). */
  label: string
  /** Electron's accelerator syntax (`CmdOrCtrl+Shift+C`); null: reached from the menu and the palette only. */
  accelerator: string | null
  /**
   * A bare key the page handles itself, and only while focus is not in a text field. Never a
   * menu accelerator: the menu would take it from every text box.
   */
  pageKey?: string
  group: MenuCommandGroup
}

export const menuCommands: readonly MenuCommand[] = [
  { id: 'newEntity', label: 'New Entity', accelerator: 'CmdOrCtrl+N', group: 'File' },
  { id: 'save', label: 'Save', accelerator: 'CmdOrCtrl+S', group: 'File' },
  { id: 'export', label: 'Export…', accelerator: 'CmdOrCtrl+E', group: 'File' },
  { id: 'runReport', label: 'Run Report', accelerator: 'CmdOrCtrl+Enter', group: 'File' },
  { id: 'switchConnection', label: 'Switch Connection…', accelerator: 'CmdOrCtrl+Shift+C', group: 'File' },
  { id: 'find', label: 'Find…', accelerator: 'CmdOrCtrl+F', group: 'Edit' },
  { id: 'commandPalette', label: 'Command Palette…', accelerator: 'CmdOrCtrl+K', group: 'View' },
  // Not Electron's reload role: in this app Ctrl+R asks the platform again, it never reloads the page.
  { id: 'refresh', label: 'Refresh', accelerator: 'CmdOrCtrl+R', group: 'View' },
  { id: 'toggleTheme', label: 'Toggle Light/Dark Theme', accelerator: 'CmdOrCtrl+Shift+L', group: 'View' },
  // Positional: the page owns its sections' order and names (renderer/src/shell/sections.ts).
  { id: 'goToSection1', label: 'Go to Section 1', accelerator: 'CmdOrCtrl+1', group: 'Go' },
  { id: 'goToSection2', label: 'Go to Section 2', accelerator: 'CmdOrCtrl+2', group: 'Go' },
  { id: 'goToSection3', label: 'Go to Section 3', accelerator: 'CmdOrCtrl+3', group: 'Go' },
  { id: 'goToSection4', label: 'Go to Section 4', accelerator: 'CmdOrCtrl+4', group: 'Go' },
  { id: 'keyboardShortcuts', label: 'Keyboard Shortcuts', accelerator: 'F1', pageKey: '?', group: 'Help' },
  { id: 'openLogsFolder', label: 'Open Logs Folder', accelerator: null, group: 'Help' },
  { id: 'about', label: 'About AdOps Desk', accelerator: null, group: 'Help' },
]

export function menuCommand(id: MenuCommandId): MenuCommand {
  const found = menuCommands.find((command) => command.id === id)
  if (found === undefined) throw new Error(`No menu command "${id}"`)
  return found
}

const MODIFIERS = {
  cmdorctrl: 'primary',
  commandorcontrol: 'primary',
  cmd: 'meta',
  command: 'meta',
  super: 'meta',
  meta: 'meta',
  ctrl: 'ctrl',
  control: 'ctrl',
  shift: 'shift',
  alt: 'alt',
  option: 'alt',
} as const
type Modifier = 'meta' | 'ctrl' | 'shift' | 'alt'

interface ParsedAccelerator {
  modifiers: Set<Modifier>
  key: string
}

function parseAccelerator(accelerator: string, isMac: boolean): ParsedAccelerator {
  const parts = accelerator.split('+')
  const key = parts.pop() ?? ''
  const modifiers = new Set<Modifier>()
  for (const part of parts) {
    const known = MODIFIERS[part.toLowerCase() as keyof typeof MODIFIERS]
    if (known === undefined) continue
    modifiers.add(known === 'primary' ? (isMac ? 'meta' : 'ctrl') : known)
  }
  return { modifiers, key }
}

/** The keys of a keyboard event that a shortcut is compared with (a DOM KeyboardEvent has them all). */
export interface KeyPress {
  key: string
  ctrlKey: boolean
  metaKey: boolean
  shiftKey: boolean
  altKey: boolean
}

/** Whether a key press is this accelerator, on a Mac (Cmd) or elsewhere (Ctrl). */
export function acceleratorMatches(accelerator: string, press: KeyPress, isMac: boolean): boolean {
  const { modifiers, key } = parseAccelerator(accelerator, isMac)
  const held: Record<Modifier, boolean> = { meta: press.metaKey, ctrl: press.ctrlKey, shift: press.shiftKey, alt: press.altKey }
  for (const modifier of Object.keys(held) as Modifier[]) {
    if (held[modifier] !== modifiers.has(modifier)) return false
  }
  const wanted = key.toLowerCase() === 'return' ? 'enter' : key.toLowerCase()
  return press.key.toLowerCase() === wanted
}

const MODIFIER_ORDER: readonly Modifier[] = ['ctrl', 'alt', 'shift', 'meta']
const MAC_SYMBOLS: Record<Modifier, string> = { ctrl: '⌃', alt: '⌥', shift: '⇧', meta: '⌘' }
const OTHER_NAMES: Record<Modifier, string> = { ctrl: 'Ctrl', alt: 'Alt', shift: 'Shift', meta: 'Super' }

const ARIA_NAMES: Record<Modifier, string> = { ctrl: 'Control', alt: 'Alt', shift: 'Shift', meta: 'Meta' }

/** An accelerator as `aria-keyshortcuts` says it: `Meta+K` on a Mac, `Control+K` elsewhere. */
export function ariaKeyshortcuts(accelerator: string, isMac: boolean): string {
  const { modifiers, key } = parseAccelerator(accelerator, isMac)
  const shownKey = key.length === 1 ? key.toUpperCase() : key === 'Return' ? 'Enter' : key
  return [...MODIFIER_ORDER.filter((modifier) => modifiers.has(modifier)).map((modifier) => ARIA_NAMES[modifier]), shownKey].join('+')
}

/** An accelerator as people read it: `⇧⌘C` on a Mac, `Ctrl+Shift+C` elsewhere (the order each platform's menus use). */
export function describeAccelerator(accelerator: string, isMac: boolean): string {
  const { modifiers, key } = parseAccelerator(accelerator, isMac)
  const shownKey = key.length === 1 ? key.toUpperCase() : key === 'Enter' || key === 'Return' ? (isMac ? '↩' : 'Enter') : key
  const held = MODIFIER_ORDER.filter((modifier) => modifiers.has(modifier))
  if (isMac) return `${held.map((modifier) => MAC_SYMBOLS[modifier]).join('')}${shownKey}`
  return [...held.map((modifier) => OTHER_NAMES[modifier]), shownKey].join('+')
}
