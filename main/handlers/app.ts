import type { Services } from '../services'
import type { HandlersFor } from './types'

export function appHandlers(services: Services): HandlersFor<'app'> {
  return {
    'app:info': async () => ({
      version: services.environment.version,
      platform: services.environment.platform,
      keychainAvailable: await services.secrets.isKeychainAvailable(),
      notices: services.notices.list(),
    }),
    'app:dismissNotice': async ({ id }) => {
      services.notices.dismiss(id)
      return null
    },
  }
}
