import type { EventName, EventPayload } from '@contract'
import type { Services } from '../services'

/** Where main's events go: a window's webContents in Electron, a server-sent-events stream in the web host. */
export type EventSink = <E extends EventName>(event: E, payload: EventPayload<E>) => void

/** Connects every service that emits to the sink; returns the disconnect. */
export function connectEvents(services: Services, sink: EventSink): () => void {
  const disconnectors = [
    services.notices.subscribe((notice) => sink('onNotice', notice)),
    services.events.subscribe((event, payload) => sink(event, payload)),
  ]
  return () => {
    for (const disconnect of disconnectors) disconnect()
  }
}
