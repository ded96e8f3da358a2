/**
 * The board-wide overrides as the Overrides editor edits them, and in words: on the board (one
 * line) and on each tile (what it runs with from the board). A switched-off part keeps what was
 * typed, so switching it back loses nothing; only the parts switched on are saved.
 */
import type { BoardOverrides, TimezoneRule } from '@contract'
import { formatOffset } from '../reports/dates'

export interface OverridesForm {
  datesOn: boolean
  start: string
  end: string
  timezoneOn: boolean
  timezone: TimezoneRule
  /** null: each tile runs on the active connection. */
  profileId: string | null
}

export function formOfOverrides(overrides: BoardOverrides): OverridesForm {
  return {
    datesOn: overrides.dates !== null,
    start: overrides.dates?.start ?? '-7d',
    end: overrides.dates?.end ?? '-1d',
    timezoneOn: overrides.timezone !== null,
    timezone: overrides.timezone ?? { mode: 'report' },
    profileId: overrides.profileId ?? null,
  }
}

export function overridesOfForm(form: OverridesForm): BoardOverrides {
  return {
    dates: form.datesOn ? { start: form.start.trim(), end: form.end.trim() } : null,
    timezone: form.timezoneOn ? form.timezone : null,
    profileId: form.profileId,
  }
}

export function timezoneText(rule: TimezoneRule): string {
  if (rule.mode === 'fixed') return formatOffset(rule.offset)
  return rule.mode === 'os' ? "this computer's timezone" : "the report's timezone"
}

/** The board's line above its tiles; null when it overrides nothing. `connectionName` names a profile id (never its address). */
export function overridesText(overrides: BoardOverrides, connectionName: (profileId: string) => string): string | null {
  const parts = [
    overrides.dates ? `dates ${overrides.dates.start} → ${overrides.dates.end}` : null,
    overrides.timezone ? `timezone ${timezoneText(overrides.timezone)}` : null,
    overrides.profileId ? `connection ${connectionName(overrides.profileId)}` : null,
  ].filter((part): part is string => part !== null)
  return parts.length > 0 ? `Every tile uses the board's ${parts.join(' and ')}.` : null
}

/** What a tile says it takes from the board ("Board's dates and timezone"); null when the board overrides neither. */
export function tileOverrideNote(overrides: BoardOverrides): string | null {
  const parts = [overrides.dates ? 'dates' : null, overrides.timezone ? 'timezone' : null].filter((part) => part !== null)
  if (parts.length === 0) return null
  return `Board's ${parts.join(' and ')}`
}
