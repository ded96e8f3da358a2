import type { Capabilities } from '@contract'
import type { Services } from '../services'
import { profileHandlers } from './profiles'
import { appHandlers } from './app'
import { draftHandlers, entityHandlers } from './entities'
import { exportHandlers } from './exports'
import { presetHandlers } from './presets'
import { reportHandlers } from './reports'
import { requestHandlers, workspaceHandlers } from './workspace'
import type { Handlers } from './types'

export type { Handlers, HandlersFor } from './types'

export function createHandlers(services: Services, capabilities: Capabilities): Handlers {
  return {
    ...appHandlers(services, capabilities),
    ...profileHandlers(services),
    ...workspaceHandlers(services),
    ...requestHandlers(services),
    ...entityHandlers(services),
    ...draftHandlers(services),
    ...reportHandlers(services),
    ...exportHandlers(services),
    ...presetHandlers(services),
  }
}
