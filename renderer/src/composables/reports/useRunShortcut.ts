import { onBeforeUnmount, onMounted } from 'vue'

/** Ctrl+Enter (⌘+Enter on a Mac) runs, from anywhere on the page, as in query editors. */
export function useRunShortcut(run: () => void): void {
  const listener = (event: KeyboardEvent): void => {
    if (event.key !== 'Enter' || !(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return
    event.preventDefault()
    run()
  }
  onMounted(() => window.addEventListener('keydown', listener))
  onBeforeUnmount(() => window.removeEventListener('keydown', listener))
}
