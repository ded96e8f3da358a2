/**
 * How the contract's tables turn into `window.api`: a function per channel, grouped by the
 * domain before the colon, and an `onXxx(listener)` per event. Generic over the tables so it
 * imports none of them.
 */
import type { z } from 'zod'
import type { Outcome } from './errors'
import type { ChannelSpec } from './primitives'

type AnyChannels = Record<string, ChannelSpec<z.ZodType, z.ZodType>>
type AnyEvents = Record<string, z.ZodType>

type DomainOf<C extends string> = C extends `${infer D}:${string}` ? D : never

export type ApiOf<C extends AnyChannels, E extends AnyEvents> = {
  [D in DomainOf<keyof C & string>]: {
    [N in keyof C & string as N extends `${D}:${infer V}` ? V : never]: (input: z.input<C[N]['input']>) => Promise<Outcome<z.output<C[N]['output']>>>
  }
} & {
  [K in keyof E]: (listener: (payload: z.output<E[K]>) => void) => () => void
}

/** Splits `domain:verb`; the one place that knows how a channel name maps onto window.api. */
export function splitChannel(name: string): { domain: string; verb: string } {
  const at = name.indexOf(':')
  return { domain: name.slice(0, at), verb: name.slice(at + 1) }
}

/** The IPC channel an event travels on (given an event's name: the events' table imports this file). */
export const eventChannel = (event: string): string => `event:${event}`
