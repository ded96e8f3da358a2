import { eventChannel, splitChannel } from './contract/api'
import type { Api, ChannelName, EventName } from './contract'

/**
 * How the bridge reaches main: Electron's ipcRenderer in the app, HTTP in the web test host.
 * Only these two functions exist; the page never gets a generic invoke or on.
 */
export interface BridgeTransport {
  invoke(channel: string, input: unknown): Promise<unknown>
  subscribe(channel: string, listener: (payload: unknown) => void): () => void
}

/** The contract's names: all the bridge needs of it (see contract-names.ts). */
export interface ContractNames {
  channels: readonly ChannelName[]
  events: readonly EventName[]
}

/**
 * Builds `window.api` from the contract's names: `api.domain.verb(input)` for every channel and
 * `api.onXxx(listener)` for every event. Frozen, so the page cannot swap a function.
 */
export function buildApi(transport: BridgeTransport, names: ContractNames): Api {
  const api: Record<string, unknown> = {}
  for (const name of names.channels) {
    const { domain, verb } = splitChannel(name)
    const group = (api[domain] ??= {}) as Record<string, unknown>
    group[verb] = (input: unknown) => transport.invoke(name, input ?? {})
  }
  for (const event of names.events) {
    api[event] = (listener: (payload: unknown) => void) => {
      if (typeof listener !== 'function') throw new TypeError(`${event} needs a function`)
      return transport.subscribe(eventChannel(event), listener)
    }
  }
  for (const value of Object.values(api)) Object.freeze(value)
  return Object.freeze(api) as unknown as Api
}
