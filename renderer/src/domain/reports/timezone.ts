/**
 * The platform takes whole-hour UTC offsets only and knows nothing of daylight saving. When a
 * report follows this computer's zone, the user should know when that is not exact.
 */

/** Offsets in minutes east of UTC (UTC+1 is 60): now, and in January and July of this year. */
export interface ZoneOffsets {
  current: number
  january: number
  july: number
}

/** Reads the computer's offsets from a clock; `now` is passed in so tests choose the moment. */
export function zoneOffsets(now: Date): ZoneOffsets {
  const year = now.getFullYear()
  return {
    current: -now.getTimezoneOffset(),
    january: -new Date(year, 0, 1).getTimezoneOffset(),
    july: -new Date(year, 6, 1).getTimezoneOffset(),
  }
}

/** `UTC+5:30`, `UTC−3`, `UTC` for an offset in minutes. */
export function formatMinutesOffset(minutes: number): string {
  if (minutes === 0) return 'UTC'
  const sign = minutes > 0 ? '+' : '−'
  const absolute = Math.abs(minutes)
  const hours = Math.floor(absolute / 60)
  const rest = absolute % 60
  return `UTC${sign}${hours}${rest === 0 ? '' : `:${String(rest).padStart(2, '0')}`}`
}

/** Sentences about this computer's zone that matter for a report; empty when it is a plain whole-hour zone. */
export function zoneWarnings(offsets: ZoneOffsets): string[] {
  const warnings: string[] = []
  if (offsets.january !== offsets.july) {
    warnings.push(
      `This computer's zone moves with daylight saving time (${formatMinutesOffset(offsets.january)} in January, ${formatMinutesOffset(offsets.july)} in July). ` +
        'The platform takes a fixed offset, so the report uses the one in force when it runs: its days start an hour apart in summer and in winter.',
    )
  }
  if (offsets.current % 60 !== 0) {
    warnings.push(
      `This computer is at ${formatMinutesOffset(offsets.current)}, but the platform takes whole hours only: days are cut at a whole hour next to yours (the resolved dates show which).`,
    )
  }
  return warnings
}
