/**
 * The export file-name pattern's live example: each token replaced as a run would replace it
 * (main does the same at run time with the dates the run resolves), the format's extension
 * added. Unknown tokens stay as typed: the contract's check names them under the field.
 */
import type { ScheduleFileFormat } from '@contract'

export interface PatternValues {
  preset: string
  /** YYYY-MM-DD, as the run resolves the preset's dates. */
  start: string
  end: string
  /** The run's own date, YYYY-MM-DD. */
  date: string
}

/** The characters a file name cannot hold on any of the three systems, replaced as main replaces them. */
const UNSAFE = /[/\\:*?"<>|\u0000-\u001f]/g

export function patternExample(pattern: string, values: PatternValues, format: ScheduleFileFormat): string {
  const filled = pattern.trim().replace(/\{(preset|start|end|date)\}/g, (_token, name: keyof PatternValues) => values[name].replace(UNSAFE, '-'))
  return `${filled}.${format}`
}

/** YYYY-MM-DD of a date in this computer's calendar. */
export function isoDay(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}
