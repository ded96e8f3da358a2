import { inject, onBeforeUnmount, provide, type InjectionKey } from 'vue'

/**
 * Text typed into a list field's "add" box but not yet added (no Add, no Enter). A form asks
 * every such field to settle it before it submits: valid text joins the list, invalid text
 * keeps its sentence under the field and stops the submit, so nothing typed is dropped unseen.
 */
export interface PendingEntries {
  /** Adds one field's settle step; returns what takes it away again. */
  register(settle: () => boolean): () => void
  /** Settles every field's pending text; false when one of them refused its text. */
  settleAll(): boolean
}

const PENDING_ENTRIES: InjectionKey<PendingEntries> = Symbol('pending list entries')

/** Called by a form: its list fields register with it, and its submit settles them first. */
export function providePendingEntries(): PendingEntries {
  const steps = new Set<() => boolean>()
  const entries: PendingEntries = {
    register(settle) {
      steps.add(settle)
      return () => steps.delete(settle)
    },
    settleAll() {
      // Every field settles (each shows its own sentence), not only up to the first refusal.
      let allSettled = true
      for (const settle of steps) if (!settle()) allSettled = false
      return allSettled
    },
  }
  provide(PENDING_ENTRIES, entries)
  return entries
}

/**
 * Called by a list field: `settle` adds its pending text (true) or shows why it cannot (false).
 * Outside a form that provides pending entries, nothing asks it to.
 */
export function usePendingEntry(settle: () => boolean): void {
  const entries = inject(PENDING_ENTRIES, null)
  if (!entries) return
  const unregister = entries.register(settle)
  onBeforeUnmount(unregister)
}
