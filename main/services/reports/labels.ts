import { LINE_SEPARATOR, TOTAL_LINE } from './platform-body'

/** The `mappings` of a time series answer: key field → value → name (null when it has none). */
export type LineMappings = Record<string, Record<string, string | null>>

/** Mappings of several answers in one (later answers fill what earlier ones lacked). */
export function mergeMappings(all: ReadonlyArray<LineMappings | undefined>): LineMappings {
  const merged: LineMappings = {}
  for (const mappings of all) {
    for (const [key, values] of Object.entries(mappings ?? {})) {
      const target = (merged[key] ??= {})
      for (const [value, name] of Object.entries(values)) if (target[value] === undefined || target[value] === null) target[value] = name
    }
  }
  return merged
}

/**
 * A chart line as people read it: "Total", or each key's value with its name, the keys joined
 * by " / ". A value shows as "value — name" when the platform names it (ad-ops people know
 * publishers by id and by name, so both are kept); a name equal to the value is not repeated.
 */
export function lineLabel(line: string, breakdown: readonly string[], mappings: LineMappings): string {
  if (line === TOTAL_LINE) return 'Total'
  return line
    .split(LINE_SEPARATOR)
    .map((value, position) => {
      const key = breakdown[position]
      const name = key === undefined ? null : (mappings[key]?.[value] ?? null)
      return name === null || name === '' || name === value ? value : `${value} — ${name}`
    })
    .join(' / ')
}
