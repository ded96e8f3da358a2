import type { DataFieldInfo, KeyFieldInfo, ReportInfoView } from '@contract'
import type { ReportInfo } from '../reporting/schemas'
import { TIME_GRANULARITIES } from './dates'

/**
 * The platform's `info` as the builder uses it. The service's docs and answers disagree on a
 * few names (`display_type` is described as `type`, `show_percents` as `show_percent`), so
 * both spellings are read.
 */

type Raw = Record<string, unknown>

const string = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback)
const stringOrNull = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null)
const flag = (value: unknown): boolean => value === 1 || value === true || value === '1'
const timeKeys = new Set(TIME_GRANULARITIES.map((granularity) => `granularity_${granularity}`))

function keyField(raw: Raw): KeyFieldInfo {
  const name = string(raw.name)
  return {
    name,
    description: string(raw.description, name),
    type: raw.type === 'int' ? 'int' : 'text',
    mapping: stringOrNull(raw.mapping),
    segmented: flag(raw.is_segmented),
    group: stringOrNull(raw.link),
    annotation: string(raw.annotation),
    isTime: timeKeys.has(name),
  }
}

const showPercentsNames = { 0: 'never', 1: 'whenSorted', 2: 'always' } as const

function dataField(raw: Raw): DataFieldInfo {
  const name = string(raw.name)
  const declared = raw.display_type ?? raw.type
  const displayType = declared === 'int' || declared === 'percent' ? declared : 'float'
  const formula = stringOrNull(raw.formula)
  const percents = Number(raw.show_percents ?? raw.show_percent ?? 0)
  const access = raw.access === 'shared' || raw.access === 'private' ? raw.access : null
  return {
    name,
    description: string(raw.description, name),
    displayType,
    precision: typeof raw.display_precision === 'number' ? raw.display_precision : displayType === 'int' ? 0 : 2,
    pattern: stringOrNull(raw.display_pattern),
    showPercents: percents === 1 || percents === 2 ? showPercentsNames[percents] : 'never',
    optional: flag(raw.is_optional),
    formula,
    formulaDescription: stringOrNull(raw.formula_description),
    access,
    annotation: string(raw.annotation),
    // Plain sums only: a percent or a derived metric summed over days or lines means nothing.
    additive: displayType !== 'percent' && formula === null,
  }
}

export function normaliseInfo(raw: ReportInfo, project: string, report: string, fetchedAt: string, offlineReason: string | null): ReportInfoView {
  return {
    project,
    report,
    timezone: typeof raw.timezone === 'number' ? raw.timezone : null,
    supportsTimezone: flag(raw.supports_timezone),
    firstDate: stringOrNull(raw.first_date),
    lastDate: stringOrNull(raw.last_date),
    keyFields: raw.key_fields.map((field) => keyField(field)),
    dataFields: raw.data_fields.map((field) => dataField(field)),
    audienceSources: (raw.audience_sources ?? []).map((source) => ({
      name: source.name,
      description: string(source.description, source.name),
      annotation: string(source.annotation),
    })),
    annotation: stringOrNull(raw.annotation),
    fetchedAt,
    offlineReason,
  }
}
