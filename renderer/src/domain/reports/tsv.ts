import type { Series } from '@contract'

/** docs/architecture.md's TSV escaping: backslash before tab, newline and backslash. */
export function escapeTsv(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\r?\n/g, '\\n')
}

const number = (value: number | null): string => (value === null ? '' : String(value))

/**
 * The series table as TSV for a spreadsheet: raw numbers (no thousands separators), empty where
 * there is none; with `peak`, the category chart's "Highest at" column too.
 */
export function seriesTsv(series: readonly Series[], comparison: boolean, peak: ((entry: Series) => string | null) | null = null): string {
  const header = ['Series', 'Metric', 'Total', 'Average', 'Min', 'Max', ...(peak ? ['Highest at'] : []), ...(comparison ? ['Change %'] : [])]
  const rows = series.map((entry) => [
    escapeTsv(entry.label),
    escapeTsv(entry.metric),
    number(entry.stats.total),
    number(entry.stats.average),
    number(entry.stats.min),
    number(entry.stats.max),
    ...(peak ? [escapeTsv(peak(entry) ?? '')] : []),
    ...(comparison ? [entry.stats.change === null ? '' : entry.stats.change.toFixed(2)] : []),
  ])
  return [header, ...rows].map((row) => row.join('\t')).join('\n') + '\n'
}
