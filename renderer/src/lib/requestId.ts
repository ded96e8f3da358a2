/**
 * A fresh id for a cancellable call: main keys `requests:cancel` by it. The label only marks the
 * fallback id (no crypto.randomUUID, as in an old test environment), so a log says what it was for.
 */
export function newRequestId(label = 'request'): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${label}-${Date.now()}-${Math.random().toString(36).slice(2)}`
}
