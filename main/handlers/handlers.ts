import type { ChannelName, ChannelParsedInput, ChannelResult } from '../../preload/contract'
import type { Services } from '../services'
import { profileHandlers } from './profiles'
import { appHandlers } from './app'
import { draftHandlers, entityHandlers } from './entities'
import { requestHandlers, workspaceHandlers } from './workspace'

/** One function per contract channel; the compiler checks none is missing and none is extra. */
export type Handlers = {
  [C in ChannelName]: (input: ChannelParsedInput<C>) => Promise<ChannelResult<C>>
}

export type HandlersFor<Prefix extends string> = {
  [C in ChannelName as C extends `${Prefix}:${string}` ? C : never]: Handlers[C]
}

export function createHandlers(services: Services): Handlers {
  return {
    ...appHandlers(services),
    ...profileHandlers(services),
    ...workspaceHandlers(services),
    ...requestHandlers(services),
    ...entityHandlers(services),
    ...draftHandlers(services),
  }
}
