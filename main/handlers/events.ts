import { events, type EventName, type EventPayload } from '@contract'
import type { Services } from '../services'
import type { EventSink } from '../services/host-adapters'

export type { EventSink }

export interface ConnectEventsOptions {
  /** Where a dropped event is reported (main's console by default). */
  log?: (message: string) => void
}

/**
 * Connects every service that emits to the sink; returns the disconnect. Events are checked
 * like results: a payload that does not match its contract schema is dropped (and logged), and
 * one that does is sent as the schema reads it, so a field a service added by mistake (a
 * secret, a raw body) never reaches the page.
 */
export function connectEvents(services: Services, sink: EventSink, options: ConnectEventsOptions = {}): () => void {
  const log = options.log ?? ((message: string) => console.warn(message))
  const send = <E extends EventName>(event: E, payload: EventPayload<E>): void => {
    const checked = events[event].safeParse(payload)
    if (!checked.success) {
      const issue = checked.error.issues[0]
      log(`AdOps Desk dropped an "${event}" event that does not match the contract (${issue?.path.join('.') || 'payload'}: ${issue?.message ?? 'invalid'}).`)
      return
    }
    sink(event, checked.data as EventPayload<E>)
  }
  const disconnectors = [services.notices.subscribe((notice) => send('onNotice', notice)), services.events.subscribe((event, payload) => send(event, payload))]
  return () => {
    for (const disconnect of disconnectors) disconnect()
  }
}
