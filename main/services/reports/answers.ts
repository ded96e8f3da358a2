import type { ChartMarker } from '@contract'
import type { TimeSeriesResult } from '../reporting/schemas'
import type { LineMappings } from './labels'

/** One time series answer read into what a chart needs: its categories and a column per line. */
export interface SeriesAnswer {
  categories: string[]
  /** One value per category for each requested line; null where the answer had no number. */
  columns: Map<string, Array<number | null>>
  markers: ChartMarker[]
  mappings: LineMappings | undefined
  /** Category → its row's `__mapping__`, where that is a name other than the category itself. */
  categoryNames: Map<string, string>
}

function numberOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null
  if (typeof value === 'string' && value.trim() !== '') {
    const parsed = Number(value)
    return Number.isFinite(parsed) ? parsed : null
  }
  return null
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : ''
}

function markerOf(raw: unknown): ChartMarker | null {
  if (typeof raw !== 'object' || raw === null) return null
  const marker = raw as Record<string, unknown>
  const id = numberOf(marker.marker_id)
  if (id === null) return null
  const person = [text(marker.first_name), text(marker.last_name)].filter((part) => part !== '').join(' ')
  return {
    id,
    date: text(marker.date),
    message: text(marker.message),
    author: person === '' ? text(marker.author) : person,
    created: text(marker.created),
    edited: text(marker.edited),
  }
}

export function readAnswer(result: TimeSeriesResult, lines: readonly string[]): SeriesAnswer {
  const categories: string[] = []
  const columns = new Map<string, Array<number | null>>(lines.map((line) => [line, []]))
  const markers: ChartMarker[] = []
  const categoryNames = new Map<string, string>()
  for (const row of result.rows) {
    const category = text(row.__time__)
    categories.push(category)
    const name = row.__mapping__
    if (typeof name === 'string' && name !== '' && name !== category) categoryNames.set(category, name)
    for (const line of lines) columns.get(line)?.push(numberOf(row[line]))
    const rowMarkers = row.__markers__
    if (Array.isArray(rowMarkers)) {
      for (const raw of rowMarkers) {
        const marker = markerOf(raw)
        if (marker !== null) markers.push(marker)
      }
    }
  }
  return { categories, columns, markers, mappings: result.mappings, categoryNames }
}

/**
 * The names of a category axis (granularity = a key field), from every answer (the first to
 * name a category wins), for the categories drawn. A time axis has none: its `__mapping__` is
 * only the bucket restated.
 */
export function categoryLabels(answers: readonly SeriesAnswer[], categories: readonly string[]): Record<string, string> {
  const labels: Record<string, string> = {}
  for (const category of categories) {
    for (const answer of answers) {
      const name = answer.categoryNames.get(category)
      if (name !== undefined) {
        labels[category] = name
        break
      }
    }
  }
  return labels
}

/** Markers of several answers, once each (the same marker comes back with every metric). */
export function uniqueMarkers(answers: readonly SeriesAnswer[]): ChartMarker[] {
  const byId = new Map<number, ChartMarker>()
  for (const answer of answers) for (const marker of answer.markers) if (!byId.has(marker.id)) byId.set(marker.id, marker)
  return [...byId.values()].sort((left, right) => (left.date < right.date ? -1 : left.date > right.date ? 1 : left.id - right.id))
}

/**
 * The x-axis shared by several answers. A time axis is every bucket any answer has, in time
 * order (the `__time__` formats sort as text); a category axis keeps the first answer's order
 * (its ranking) and appends what the others add.
 */
export function sharedCategories(answers: readonly SeriesAnswer[], isTime: boolean): string[] {
  const seen = new Set<string>()
  const all: string[] = []
  for (const answer of answers) {
    for (const category of answer.categories) {
      if (seen.has(category)) continue
      seen.add(category)
      all.push(category)
    }
  }
  return isTime ? all.sort() : all
}

/** An answer's column laid on another set of categories (by name); null where it has none. */
export function alignByName(answer: SeriesAnswer, line: string, categories: readonly string[]): Array<number | null> {
  const column = answer.columns.get(line) ?? []
  const position = new Map<string, number>()
  answer.categories.forEach((category, index) => position.set(category, index))
  return categories.map((category) => {
    const index = position.get(category)
    return index === undefined ? null : (column[index] ?? null)
  })
}

/** Fits an array to a length: cut, or padded with `filler`. */
export function fitLength<T>(values: readonly T[], length: number, filler: T): T[] {
  return values.length >= length ? values.slice(0, length) : [...values, ...Array.from({ length: length - values.length }, () => filler)]
}
