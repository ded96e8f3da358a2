import { shallowReactive } from 'vue'
import type { MenuCommandId } from '@contract'
import { useWhileActive } from '../composables/useWhileActive'

/**
 * The page's command bus: the application menu (`onMenuCommand`), the keys the page binds
 * itself where there is no menu, and the command palette all end in `runCommand`. Screens say
 * what a command does while they are shown with `useCommand`; the newest handler wins, so a
 * dialog or a section can take a command over from the shell and give it back when it closes.
 */
export type CommandHandler = () => void | Promise<void>

const handlers = shallowReactive(new Map<MenuCommandId, CommandHandler[]>())

/** Registers a handler; the returned function removes it again. */
export function handleCommand(id: MenuCommandId, handler: CommandHandler): () => void {
  handlers.set(id, [...(handlers.get(id) ?? []), handler])
  return () => {
    const remaining = (handlers.get(id) ?? []).filter((existing) => existing !== handler)
    if (remaining.length === 0) handlers.delete(id)
    else handlers.set(id, remaining)
  }
}

/** Whether something on screen handles the command now (the palette lists only those). Reactive. */
export function canRunCommand(id: MenuCommandId): boolean {
  return (handlers.get(id)?.length ?? 0) > 0
}

/** Runs the newest handler of a command; false when nothing on screen handles it. */
export function runCommand(id: MenuCommandId): boolean {
  const handler = handlers.get(id)?.at(-1)
  if (handler === undefined) return false
  void handler()
  return true
}

/** A component handles a command while it is mounted. */
export function useCommand(id: MenuCommandId, handler: CommandHandler): void {
  useWhileActive(() => handleCommand(id, handler))
}
