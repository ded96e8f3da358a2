/**
 * What the page is shown of a schedule and of the OS entry: the stored schedule with its
 * next run, its last run, a problem sentence and the folder by name (never its path).
 */
import path from 'node:path'
import { isAppError } from '../errors'
import type { LedgerEntry, OsEntryState, Schedule } from '@contract'
import { nextRunOf, zoneOf } from './scheduler'
import type { StoredSchedule } from './schedule-store'
import { cadenceText, checkCadence, NEVER_FIRES } from './timing'

/** The OS scheduler's entry, as the service needs it (os-entries/ implements it per platform). */
export interface OsEntryPort {
  state(): Promise<Omit<OsEntryState, 'lastRunAt'>>
  /**
   * Whether an entry is installed and runs this install's command. The entry's name is one per
   * user, so another data folder's or another build's entry (a second workspace, a checkout beside
   * the packaged app, a test's stand-in app) answers false.
   */
  ownsEntry(): Promise<boolean>
  install(): Promise<void>
  remove(): Promise<void>
}

/** The entry's state with when the OS last ran it (from the ledger); a failure to read it is a sentence. */
export async function osEntryState(osEntry: OsEntryPort | null, entries: readonly LedgerEntry[]): Promise<OsEntryState> {
  const lastRunAt = entries.filter((entry) => entry.source === 'os').at(-1)?.startedAt ?? null
  if (osEntry === null)
    return { kind: null, installed: false, lastRunAt, problem: 'This system has no scheduler AdOps Desk can use; schedules run while the app is open.' }
  try {
    return { ...(await osEntry.state()), lastRunAt }
  } catch (error) {
    return { kind: null, installed: false, lastRunAt, problem: isAppError(error) ? error.message : 'The system scheduler could not be read.' }
  }
}

export interface ViewContext {
  now: Date
  computerTimeZone: string | undefined
  entries: readonly LedgerEntry[]
  folders: ReadonlyArray<{ id: string; path: string }>
  running: boolean
}

export function scheduleView(schedule: StoredSchedule, context: ViewContext): Schedule {
  const zone = zoneOf(schedule, context.computerTimeZone)
  const own = context.entries.filter((entry) => entry.scheduleId === schedule.id)
  const nextRunAt = nextRunOf(schedule, context.now, context.computerTimeZone)
  let problem: string | null = null
  try {
    checkCadence(schedule.cadence, zone)
    if (schedule.enabled && nextRunAt === null) problem = NEVER_FIRES
  } catch (error) {
    problem = (error as Error).message
  }
  const exported = schedule.actions.export
  const folder = exported === null ? undefined : context.folders.find((known) => known.id === exported.folderId)
  return {
    id: schedule.id,
    name: schedule.name,
    target: schedule.target,
    profileId: schedule.profileId,
    actions: {
      export:
        exported === null
          ? null
          : {
              format: exported.format,
              fileNamePattern: exported.fileNamePattern,
              folder: {
                id: exported.folderId,
                name: folder ? path.basename(folder.path) : 'a folder no longer known',
                available: folder !== undefined,
              },
            },
      checkAlerts: schedule.actions.checkAlerts,
    },
    cadence: schedule.cadence,
    timezone: schedule.timezone,
    enabled: schedule.enabled,
    cadenceText: cadenceText(schedule.cadence, zone),
    nextRunAt: nextRunAt?.toISOString() ?? null,
    problem,
    lastRun: own.at(-1) ?? null,
    running: context.running,
    osLastRunAt: own.filter((entry) => entry.source === 'os').at(-1)?.startedAt ?? null,
  }
}
