import { useCommand } from '../../shell/commands'

/**
 * Run Report: Ctrl+Enter (⌘↩ on a Mac) from anywhere on the page, as in query editors, or the
 * menu and the palette. The command bus binds the keys (useMenuCommands), so they run once.
 */
export function useRunShortcut(run: () => void): void {
  useCommand('runReport', run)
}
