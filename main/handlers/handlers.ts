import type { Services } from '../services'
import { alertHandlers } from './alerts'
import { boardHandlers } from './boards'
import { analysisHandlers } from './analysis'
import { bulkHandlers, changeHandlers } from './bulk'
import { profileHandlers } from './profiles'
import { appHandlers, type HostFeatures } from './app'
import { withOutcomeLog } from './outcome-log'
import { draftHandlers, entityHandlers } from './entities'
import { exportHandlers } from './exports'
import { presetHandlers } from './presets'
import { reportHandlers } from './reports'
import { scheduleHandlers } from './schedules'
import { requestHandlers, workspaceHandlers } from './workspace'
import type { Handlers } from './types'

export type { Handlers, HandlersFor } from './types'
export type { HostFeatures } from './app'

/** Every channel's handler, each writing its outcome to the log (outcome-log.ts). */
export function createHandlers(services: Services, host: HostFeatures): Handlers {
  return withOutcomeLog(
    {
      ...appHandlers(services, host),
      ...profileHandlers(services),
      ...workspaceHandlers(services),
      ...requestHandlers(services),
      ...entityHandlers(services),
      ...draftHandlers(services),
      ...bulkHandlers(services),
      ...changeHandlers(services),
      ...reportHandlers(services),
      ...exportHandlers(services),
      ...presetHandlers(services),
      ...scheduleHandlers(services),
      ...alertHandlers(services),
      ...boardHandlers(services),
      ...analysisHandlers(services),
    },
    services.log,
  )
}
