/**
 * The schedule editor's form and the draft it sends. The form keeps every cadence kind's fields
 * at once, so switching kinds and back loses nothing the user typed; the draft takes the chosen
 * kind's alone. The contract's own schema checks it, so the editor and main say the same sentences.
 */
import {
  DEFAULT_BOARD_FILE_NAME_PATTERN,
  DEFAULT_FILE_NAME_PATTERN,
  formatsOfTarget,
  scheduleDraftSchema,
  type Cadence,
  type Schedule,
  type ScheduleDraft,
  type ScheduleFileFormat,
  type ScheduleTarget,
  type ScheduleTargetKind,
  type ScheduleTimezone,
  type Weekday,
} from '@contract'

export type CadenceKind = Cadence['kind']

export interface ScheduleForm {
  id: string | undefined
  name: string
  /** What it runs: a preset or a board, by name (null until chosen). */
  targetKind: ScheduleTargetKind
  targetName: string | null
  profileId: string | null
  exportFile: boolean
  format: ScheduleFileFormat
  folder: { id: string; name: string; available: boolean } | null
  fileNamePattern: string
  checkAlerts: boolean
  kind: CadenceKind
  at: string
  days: Weekday[]
  monthDay: number | 'last'
  expression: string
  timezone: ScheduleTimezone
  enabled: boolean
}

export function newScheduleForm(profileId: string | null, target: ScheduleTarget | null = null): ScheduleForm {
  const form: ScheduleForm = {
    id: undefined,
    name: target?.name ?? '',
    targetKind: 'preset',
    targetName: target?.name ?? null,
    profileId,
    exportFile: true,
    format: 'xlsx',
    folder: null,
    fileNamePattern: DEFAULT_FILE_NAME_PATTERN,
    checkAlerts: false,
    kind: 'weekdays',
    at: '07:30',
    days: ['mon', 'tue', 'wed', 'thu', 'fri'],
    monthDay: 1,
    expression: '30 7 * * 1-5',
    timezone: 'report',
    enabled: true,
  }
  return target?.kind === 'board' ? { ...switchTargetKind(form, 'board'), targetName: target.name } : form
}

/**
 * The form turned to the other kind of target: what the new kind cannot take is set to what it can
 * (a board is written as PDF or PNG, named by its day, in this computer's timezone, with no alert
 * check); what the user chose that still fits stays. The chosen name goes: presets and boards are different lists.
 */
export function switchTargetKind(form: ScheduleForm, kind: ScheduleTargetKind): ScheduleForm {
  if (form.targetKind === kind) return form
  const formats = formatsOfTarget(kind)
  const defaultPattern = kind === 'board' ? DEFAULT_BOARD_FILE_NAME_PATTERN : DEFAULT_FILE_NAME_PATTERN
  const otherDefault = kind === 'board' ? DEFAULT_FILE_NAME_PATTERN : DEFAULT_BOARD_FILE_NAME_PATTERN
  return {
    ...form,
    targetKind: kind,
    targetName: null,
    format: formats.includes(form.format) ? form.format : (formats[0] ?? form.format),
    fileNamePattern: form.fileNamePattern === otherDefault ? defaultPattern : form.fileNamePattern,
    ...(kind === 'board' ? { exportFile: true, checkAlerts: false, timezone: 'computer' as const } : {}),
  }
}

export function formOfSchedule(schedule: Schedule): ScheduleForm {
  const form = newScheduleForm(schedule.profileId, schedule.target)
  const cadence = schedule.cadence
  const exportAction = schedule.actions.export
  return {
    ...form,
    id: schedule.id,
    name: schedule.name,
    exportFile: exportAction !== null,
    format: exportAction?.format ?? form.format,
    folder: exportAction ? { ...exportAction.folder } : null,
    fileNamePattern: exportAction?.fileNamePattern ?? form.fileNamePattern,
    checkAlerts: schedule.actions.checkAlerts,
    kind: cadence.kind,
    at: cadence.kind === 'cron' ? form.at : cadence.at,
    days: cadence.kind === 'weekdays' ? [...cadence.days] : form.days,
    monthDay: cadence.kind === 'monthly' ? cadence.day : form.monthDay,
    expression: cadence.kind === 'cron' ? cadence.expression : form.expression,
    timezone: schedule.timezone,
    enabled: schedule.enabled,
  }
}

export function cadenceOfForm(form: ScheduleForm): Cadence {
  switch (form.kind) {
    case 'daily':
      return { kind: 'daily', at: form.at }
    case 'weekdays':
      return { kind: 'weekdays', days: form.days, at: form.at }
    case 'monthly':
      return { kind: 'monthly', day: form.monthDay, at: form.at }
    case 'cron':
      return { kind: 'cron', expression: form.expression }
  }
}

export type DraftCheck = { ok: true; draft: ScheduleDraft } | { ok: false; problems: Record<string, string> }

/** The draft, or each problem under the field it belongs to (`name`, `target`, `folder`, `format`, `fileNamePattern`, `cadence`, `timezone`, `actions`). */
export function draftOfForm(form: ScheduleForm): DraftCheck {
  const problems: Record<string, string> = {}
  if (form.targetName === null) problems.target = form.targetKind === 'board' ? 'Choose the board to draw' : 'Choose the preset to run'
  if (form.profileId === null) problems.profileId = 'Choose the connection to run it on'
  if (form.exportFile && form.folder === null) problems.folder = 'Choose the folder the file goes to'
  const candidate = {
    ...(form.id === undefined ? {} : { id: form.id }),
    name: form.name,
    target: { kind: form.targetKind, name: form.targetName ?? '' },
    profileId: form.profileId ?? '',
    actions: {
      export: form.exportFile ? { format: form.format, folderId: form.folder?.id ?? '', fileNamePattern: form.fileNamePattern } : null,
      checkAlerts: form.checkAlerts,
    },
    cadence: cadenceOfForm(form),
    timezone: form.timezone,
    enabled: form.enabled,
  }
  const parsed = scheduleDraftSchema.safeParse(candidate)
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const [first, second] = issue.path
      const field =
        first === 'actions' && second === 'export'
          ? String(issue.path.at(-1) === 'folderId' ? 'folder' : (issue.path.at(-1) ?? 'actions'))
          : String(first ?? 'form')
      problems[field] ??= issue.message
    }
  }
  if (Object.keys(problems).length > 0 || !parsed.success) return { ok: false, problems }
  return { ok: true, draft: parsed.data }
}

/** What a schedule runs, as the list and the ledger show it: a preset by its name (as before boards), a board as "Board: <name>". */
export function targetText(target: ScheduleTarget): string {
  return target.kind === 'board' ? `Board: ${target.name}` : target.name
}

/** A board run's tiles drawn without data, in one sentence for the ledger; null when none. */
export function missingTilesText(missing: ReadonlyArray<{ title: string; reason: string }> | null): string | null {
  if (missing === null || missing.length === 0) return null
  const count = missing.length === 1 ? '1 tile had no data' : `${missing.length} tiles had no data`
  return `${count}: ${missing.map((tile) => `${tile.title} (${tile.reason})`).join('; ')}`
}
