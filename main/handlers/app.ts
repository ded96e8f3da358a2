import type { Capabilities } from '@contract'
import type { Services } from '../services'
import type { HandlersFor } from './types'

/** `capabilities` come from the host (Electron or the web host), which alone knows what it offers. */
export function appHandlers(services: Services, capabilities: Capabilities): HandlersFor<'app'> {
  return {
    'app:info': async () => ({
      version: services.environment.version,
      platform: services.environment.platform,
      keychainAvailable: await services.secrets.isKeychainAvailable(),
      capabilities,
      notices: services.notices.list(),
    }),
    'app:dismissNotice': async ({ id }) => {
      services.notices.dismiss(id)
      return null
    },
  }
}
