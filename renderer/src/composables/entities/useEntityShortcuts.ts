import { useCommand } from '../../shell/commands'
import { useCommandWhile } from '../shell/useCommandWhile'
import { useWhileActive } from '../useWhileActive'

export interface EntityShortcuts {
  isEditing: () => boolean
  openNew: () => void
  save: () => void
  close: () => void
  refresh: () => void
  find: () => void
}

/**
 * The entity screen's commands (New Entity, Save while a form is open, Refresh, Find: from the
 * menu, their keys or the palette) and its own Esc, which closes the form unless a dialog or
 * an open dropdown should get the Esc first.
 */
export function useEntityShortcuts(actions: EntityShortcuts): void {
  useCommand('newEntity', () => {
    if (!actions.isEditing()) actions.openNew()
  })
  useCommandWhile('save', actions.isEditing, actions.save)
  useCommand('refresh', actions.refresh)
  useCommandWhile('find', () => !actions.isEditing(), actions.find)

  function onKey(event: KeyboardEvent): void {
    if (
      event.key === 'Escape' &&
      actions.isEditing() &&
      !document.querySelector('.n-modal, .n-dialog') &&
      !document.activeElement?.closest('.n-base-selection, .n-popover')
    ) {
      event.preventDefault()
      actions.close()
    }
  }
  useWhileActive(() => {
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  })
}
