/**
 * Until the scheduler lands (issue 22, step 2), the bridge channels answer an empty state and a
 * clear sentence, so the schedule screens can be built against the real contract meanwhile.
 */
import { AppError } from '../errors'
import type { SchedulesService } from './types'

const notYet = (): never => {
  throw new AppError('internal', 'Schedules are not available in this build yet. Update AdOps Desk to use them.')
}

export function createPlaceholderSchedules(): SchedulesService {
  return {
    list: async () => ({
      schedules: [],
      osEntry: { kind: null, installed: false, lastRunAt: null, problem: null },
      failureCount: 0,
      keepRunningInBackground: false,
      backgroundSupported: false,
    }),
    save: async () => notYet(),
    remove: async () => notYet(),
    runNow: async () => notYet(),
    ledger: async () => ({ total: 0, entries: [] }),
    clearFailures: async () => ({ failureCount: 0 }),
    chooseFolder: async () => notYet(),
    installEntry: async () => notYet(),
    removeEntry: async () => notYet(),
    setKeepRunning: async () => notYet(),
  }
}
