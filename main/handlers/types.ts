import type { ChannelName, ChannelParsedInput, ChannelResult } from '@contract'

/** One function per contract channel; the compiler checks none is missing and none is extra. */
export type Handlers = {
  [C in ChannelName]: (input: ChannelParsedInput<C>) => Promise<ChannelResult<C>>
}

/** The channels of one domain (`profiles`, `entities`…), for a handler file that serves only those. */
export type HandlersFor<Prefix extends string> = {
  [C in ChannelName as C extends `${Prefix}:${string}` ? C : never]: Handlers[C]
}
