import diagnosticsChannel from 'node:diagnostics_channel'
import type { IncomingMessage, Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ServerRequests {
  /** Requests the server received with this method whose path contains `pathPart`. */
  count(method: string, pathPart: string): number
  stop(): void
}

/**
 * The requests a node:http server in this process received, seen from the server's side
 * (Node's `http.server.request.start` channel), so "sent once" is proved by what arrived,
 * not by what the client believes it sent. `port` picks the server (the sandbox's, a stub's).
 */
export function recordServerRequests(port: number): ServerRequests {
  const received: Array<{ method: string; path: string }> = []
  const onStart = (message: unknown): void => {
    const { request, server } = message as { request: IncomingMessage; server: Server }
    if ((server.address() as AddressInfo | null)?.port !== port) return
    received.push({ method: request.method ?? '', path: request.url ?? '' })
  }
  diagnosticsChannel.subscribe('http.server.request.start', onStart)
  return {
    count: (method, pathPart) => received.filter((request) => request.method === method && request.path.includes(pathPart)).length,
    stop: () => diagnosticsChannel.unsubscribe('http.server.request.start', onStart),
  }
}
