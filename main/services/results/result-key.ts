import { createHash } from 'node:crypto'
import type { ReportDefinition, RunKind } from '@contract'
import { nameKey } from '../presets/names'

/** JSON with every object's keys sorted: the same value always gives the same text. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0))
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableJson(item)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

/**
 * The hash a definition's data is known by. The chart's look (type, hidden series, markers)
 * changes no number, so switching a line chart to bars still finds its result.
 */
export function definitionHash(definition: ReportDefinition): string {
  const { chart: _look, ...data } = definition
  return createHash('sha256').update(stableJson(data)).digest('hex').slice(0, 40)
}

/** One cached result: per kind of run, per definition, and per preset (by name, any case) or ad hoc. */
export function resultKey(kind: RunKind, definition: ReportDefinition, preset: string | null): string {
  const owner = preset === null ? null : nameKey(preset)
  return createHash('sha256')
    .update(stableJson({ kind, preset: owner, definition: definitionHash(definition) }))
    .digest('hex')
    .slice(0, 40)
}
