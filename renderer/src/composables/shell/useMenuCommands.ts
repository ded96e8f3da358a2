import { onBeforeUnmount, onMounted } from 'vue'
import { acceleratorMatches, menuCommands, type KeyPress, type MenuCommand, type MenuCommandId } from '@contract'
import { api } from '../../api/bridge'
import { canRunCommand, runCommand } from '../../shell/commands'
import { useAppStore } from '../../stores/app'

export interface KeyContext {
  /** The host has an application menu: it owns the accelerators, the page keeps only its bare keys. */
  nativeMenu: boolean
  isMac: boolean
  /** Focus is in something that types text, where a bare key is text and not a command. */
  inTextField: boolean
}

/** The command a key press means here, if any (menu accelerators first, then the page's bare keys). */
export function commandForKey(press: KeyPress, context: KeyContext, commands: readonly MenuCommand[] = menuCommands): MenuCommandId | null {
  for (const command of commands) {
    if (!context.nativeMenu && command.accelerator !== null && acceleratorMatches(command.accelerator, press, context.isMac)) return command.id
  }
  if (context.inTextField || press.ctrlKey || press.metaKey || press.altKey) return null
  return commands.find((command) => command.pageKey === press.key)?.id ?? null
}

const NOT_TEXT_INPUTS = new Set(['button', 'checkbox', 'radio', 'range', 'color', 'file', 'submit', 'reset', 'image'])

export function isTextField(element: Element | null): boolean {
  if (element === null) return false
  if (element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) return true
  if (element instanceof HTMLInputElement) return !NOT_TEXT_INPUTS.has(element.type)
  return element instanceof HTMLElement && element.isContentEditable
}

/**
 * Binds the app's commands to the page once (AppShell): what the application menu sends, and
 * where there is no menu (the web host) the same accelerators from the keyboard. A key only
 * counts as used when something on screen ran its command, so Ctrl+S on a screen that saves
 * nothing still reaches the browser.
 */
export function useMenuCommands(): void {
  const app = useAppStore()
  let unsubscribe: (() => void) | undefined

  function onKeydown(event: KeyboardEvent): void {
    const id = commandForKey(event, {
      nativeMenu: app.capabilities.nativeMenu === true,
      isMac: app.platform === 'darwin',
      inTextField: isTextField(document.activeElement),
    })
    if (id === null || !canRunCommand(id)) return
    event.preventDefault()
    // A held key repeats: run once per press (holding Ctrl+Enter must not queue reports).
    if (!event.repeat) runCommand(id)
  }

  onMounted(() => {
    unsubscribe = api().onMenuCommand(({ command }) => runCommand(command))
    window.addEventListener('keydown', onKeydown)
  })
  onBeforeUnmount(() => {
    unsubscribe?.()
    window.removeEventListener('keydown', onKeydown)
  })
}
