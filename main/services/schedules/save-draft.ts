/**
 * Saving a schedule from the page's draft: the preset (or board) must exist, the report's timezone is read
 * once (its offset is kept), the cadence must come due, the folder must be known and the name
 * free. A changed cadence, or a schedule switched on, starts counting now.
 */
import { randomUUID } from 'node:crypto'
import { SCHEDULE_LIMITS, type ReportDefinition, type ScheduleDraft } from '@contract'
import { AppError, isAppError } from '../errors'
import type { DocumentStore } from '../files/document-store'
import { isReportTimezone } from '../reporting/report-timezone'
import { unknownSchedule } from './runner'
import type { SchedulesDocument, StoredSchedule } from './schedule-store'
import { checkCadence } from './timing'

export interface SaveDraftContext {
  store: DocumentStore<SchedulesDocument>
  now: Date
  computerTimeZone: string | undefined
  presetOf(name: string): Promise<ReportDefinition>
  boardExists(name: string): Promise<void>
  reportOffsetHours(profileId: string, definition: ReportDefinition): Promise<number | null>
}

export const invalidField = (field: string, message: string) => new AppError('validation', message, { field, fields: { [field]: [message] } })

/** The report's offset in minutes for a schedule in the report's timezone; null for the computer's. */
async function offsetMinutesOf(draft: ScheduleDraft, context: SaveDraftContext): Promise<number | null> {
  const { target } = draft
  if (target.kind === 'board') {
    await context.boardExists(target.name).catch((error: unknown) => {
      if (isAppError(error) && error.code === 'not_found') throw invalidField('target', `There is no board named "${target.name}". Choose a saved board.`)
      throw error
    })
    // The contract keeps a board in the computer's timezone: its tiles may come from reports in several.
    return null
  }
  let definition: ReportDefinition
  try {
    definition = await context.presetOf(target.name)
  } catch (error) {
    if (isAppError(error) && error.code === 'not_found') throw invalidField('target', `There is no preset named "${target.name}". Choose a saved preset.`)
    throw error
  }
  if (draft.timezone !== 'report') return null
  const hours = await context.reportOffsetHours(draft.profileId, definition).catch((error: unknown) => {
    throw invalidField(
      'timezone',
      `The report's timezone could not be read (${isAppError(error) ? error.message : String(error)}). Choose the computer's timezone, or try again when the platform answers.`,
    )
  })
  // The port may answer a copy kept from before the client checked it: an offset the schedules file cannot hold stops here.
  if (hours !== null && !isReportTimezone(hours))
    throw invalidField(
      'timezone',
      `The report's timezone (${hours}) is not a whole number of hours from -12 to +12, so a schedule cannot run in it. Choose the computer's timezone, or ask the platform's administrators about the report's timezone.`,
    )
  return (hours ?? 0) * 60
}

/** Checks the draft and writes it; resolves with the schedule as stored. */
export async function saveDraft(draft: ScheduleDraft, context: SaveDraftContext): Promise<StoredSchedule> {
  const reportOffsetMinutes = await offsetMinutesOf(draft, context)
  checkCadence(
    draft.cadence,
    reportOffsetMinutes === null
      ? { kind: 'computer', ...(context.computerTimeZone ? { timeZone: context.computerTimeZone } : {}) }
      : { kind: 'offset', minutes: reportOffsetMinutes },
  )
  const now = context.now.toISOString()
  let saved: StoredSchedule | undefined
  await context.store.update((document) => {
    if (draft.actions.export !== null && !document.folders.some((folder) => folder.id === draft.actions.export?.folderId))
      throw invalidField('folder', 'That folder is not known. Choose the folder again.')
    const before = draft.id === undefined ? undefined : document.schedules.find((schedule) => schedule.id === draft.id)
    if (draft.id !== undefined && before === undefined) throw unknownSchedule()
    if (document.schedules.some((schedule) => schedule.id !== draft.id && schedule.name.toLowerCase() === draft.name.toLowerCase()))
      throw invalidField('name', `A schedule named "${draft.name}" already exists. Choose another name.`)
    if (before === undefined && document.schedules.length >= SCHEDULE_LIMITS.schedules)
      throw invalidField('name', `There are ${SCHEDULE_LIMITS.schedules} schedules already. Delete some before adding more.`)
    // A changed cadence or a schedule switched on starts counting now: slots before it are not missed runs.
    const sameTiming =
      before !== undefined && before.enabled && JSON.stringify(before.cadence) === JSON.stringify(draft.cadence) && before.timezone === draft.timezone
    const stored: StoredSchedule = {
      id: before?.id ?? randomUUID(),
      name: draft.name,
      target: draft.target,
      profileId: draft.profileId,
      actions: draft.actions,
      cadence: draft.cadence,
      timezone: draft.timezone,
      reportOffsetMinutes,
      enabled: draft.enabled,
      activeSince: sameTiming && before ? before.activeSince : now,
      savedAt: now,
    }
    saved = stored
    const schedules =
      before === undefined ? [...document.schedules, stored] : document.schedules.map((schedule) => (schedule.id === before.id ? stored : schedule))
    return { ...document, schedules }
  })
  if (saved === undefined) throw new AppError('internal', 'The schedule was not saved.')
  return saved
}
