import { timeGranularityOf, type TimeGranularity } from '../../../common/granularity'

/**
 * What an export's file calls its columns, and which of them hold dates. The platform names a
 * file's columns by their API names (`granularity_day`, `publisher`, `publisher Name` after a key
 * with a mapping, `impressions`); the screens name them by their descriptions ("Day",
 * "Publisher", "Publisher name", "Impressions"), and so does the file unless the user asks for
 * the API's names. Dates are typed in an xlsx file either way.
 */
export interface ExportColumns {
  /** The header as the screens say it, by API name; null: the API's names are kept. */
  labels: Readonly<Record<string, string>> | null
  /** The columns holding a time key, by API name, with their granularity. */
  dates: Readonly<Record<string, TimeGranularity>>
}

/** The fields as `info` describes them: the report's (ReportInfoView) or the platform's own answer, read the same way. */
export interface LabelledFields {
  keyFields: readonly { name: string; description?: string | undefined; mapping?: string | null | undefined }[]
  dataFields: readonly { name: string; description?: string | undefined }[]
}

const capitalised = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1)

export function exportColumns(fields: LabelledFields, keys: readonly string[], dataFields: readonly string[], apiColumnNames: boolean): ExportColumns {
  const dates: Record<string, TimeGranularity> = {}
  for (const key of keys) {
    const granularity = timeGranularityOf(key)
    if (granularity !== null) dates[key] = granularity
  }
  if (apiColumnNames) return { labels: null, dates }

  const named: Array<[string, string]> = []
  for (const key of keys) {
    const field = fields.keyFields.find((candidate) => candidate.name === key)
    const granularity = dates[key]
    const description = field?.description?.trim() ?? ''
    // A time key the platform leaves undescribed (info then repeats its name) is its granularity, as the builder says it.
    const label = granularity !== undefined && (description === '' || description === key) ? capitalised(granularity) : description || key
    named.push([key, label])
    // The spec: with mappings included, a column named after the key plus ` Name` follows it.
    if (field?.mapping) named.push([`${key} Name`, `${label} name`])
  }
  for (const name of dataFields) named.push([name, fields.dataFields.find((field) => field.name === name)?.description?.trim() || name])

  // Two columns the screens name alike keep their API names, so a table reading the file can tell them apart.
  const counts = new Map<string, number>()
  for (const [, label] of named) counts.set(label, (counts.get(label) ?? 0) + 1)
  return { labels: Object.fromEntries(named.map(([name, label]) => [name, (counts.get(label) ?? 0) > 1 ? name : label])), dates }
}
