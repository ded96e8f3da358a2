import type { Services } from '../services'
import { AppError } from '../services/errors'
import type { HandlersFor } from './types'

const notYet = async (): Promise<never> => {
  throw new AppError('internal', 'Alerts are not available in this build yet. Update AdOps Desk and try again.')
}

/** Alerts: the bridge contract is in place; the engine is wired in the next step. */
export function alertHandlers(_services: Services): HandlersFor<'alerts'> {
  return {
    'alerts:rules': notYet,
    'alerts:saveRules': notYet,
    'alerts:backtest': notYet,
    'alerts:check': notYet,
    'alerts:fired': notYet,
    'alerts:acknowledge': notYet,
    'alerts:snooze': notYet,
    'alerts:get': notYet,
  }
}
