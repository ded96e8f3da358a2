import { onBeforeUnmount, onMounted } from 'vue'

export interface EntityShortcuts {
  isEditing: () => boolean
  openNew: () => void
  save: () => void
  close: () => void
}

/**
 * The entity screen's window-wide keys: Ctrl/Cmd+N new, Ctrl/Cmd+S save the open form, Esc
 * close it — unless a dialog or an open dropdown should get the Esc first.
 */
export function useEntityShortcuts(actions: EntityShortcuts): void {
  function onKey(event: KeyboardEvent): void {
    const modifier = event.ctrlKey || event.metaKey
    const key = event.key.toLowerCase()
    if (modifier && key === 'n') {
      event.preventDefault()
      if (!actions.isEditing()) actions.openNew()
    } else if (modifier && key === 's' && actions.isEditing()) {
      event.preventDefault()
      actions.save()
    } else if (
      event.key === 'Escape' &&
      actions.isEditing() &&
      !document.querySelector('.n-modal, .n-dialog') &&
      !document.activeElement?.closest('.n-base-selection, .n-popover')
    ) {
      event.preventDefault()
      actions.close()
    }
  }
  onMounted(() => window.addEventListener('keydown', onKey))
  onBeforeUnmount(() => window.removeEventListener('keydown', onKey))
}
