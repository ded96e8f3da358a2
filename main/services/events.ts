import type { EventName, EventPayload } from '@contract'

export type EventListener = <E extends EventName>(event: E, payload: EventPayload<E>) => void

/** Services announce progress here; main forwards it to the window as contract events. */
export interface EventHub {
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void
  subscribe(listener: EventListener): () => void
}

export function createEventHub(): EventHub {
  const listeners = new Set<EventListener>()
  return {
    emit(event, payload) {
      for (const listener of listeners) listener(event, payload)
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
