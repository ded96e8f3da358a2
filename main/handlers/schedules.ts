import type { Services } from '../services'
import type { HandlersFor } from './types'

/** Thin: the scheduler, the ledger and the OS entry are the schedules service's. */
export function scheduleHandlers({ schedules }: Services): HandlersFor<'schedules'> {
  return {
    'schedules:list': () => schedules.list(),
    'schedules:save': (draft) => schedules.save(draft),
    'schedules:delete': ({ id }) => schedules.remove(id),
    'schedules:runNow': ({ id }) => schedules.runNow(id),
    'schedules:ledger': (query) => schedules.ledger(query),
    'schedules:clearFailures': () => schedules.clearFailures(),
    'schedules:chooseFolder': () => schedules.chooseFolder(),
    'schedules:installEntry': () => schedules.installEntry(),
    'schedules:removeEntry': () => schedules.removeEntry(),
    'schedules:setKeepRunning': ({ keepRunning }) => schedules.setKeepRunning(keepRunning),
  }
}
