import { REPORT_LIMITS } from '../../../common/limits'

/** A report timezone the platform may name (`info.timezone`, a request's `timezone`): whole hours from -12 to +12. */
export function isReportTimezone(hours: number): boolean {
  const { min, max } = REPORT_LIMITS.utcOffsetHours
  return Number.isInteger(hours) && hours >= min && hours <= max
}
