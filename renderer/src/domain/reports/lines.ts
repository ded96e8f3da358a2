import { MAX_CHART_LINES, type LineSelection } from '@contract'

import { LINE_SEPARATOR, TOTAL_LINE } from '../../../../common/lines'

export { LINE_SEPARATOR, TOTAL_LINE }

export function joinLine(values: readonly string[]): string {
  return values.join(LINE_SEPARATOR)
}

export function splitLine(line: string): string[] {
  return line.split(LINE_SEPARATOR)
}

/**
 * "A / B" for people. `nameOf` gives a value's name (the key's mapping) where one is known;
 * the value itself is shown otherwise.
 */
export function lineLabel(line: string, nameOf: (keyIndex: number, value: string) => string | null = () => null): string {
  if (line === TOTAL_LINE) return 'Total'
  return splitLine(line)
    .map((value, index) => nameOf(index, value) ?? value)
    .join(' / ')
}

/** How many chart lines one call sends (each metric and the comparison are calls of their own). */
export function lineCount(breakdown: readonly string[], lines: LineSelection): number {
  if (breakdown.length === 0) return 1
  const chosen = lines.mode === 'top' ? lines.count : lines.values.length
  return chosen + (lines.includeTotal ? 1 : 0)
}

/** Why these lines cannot be sent, as a sentence; null when they can. */
export function linesProblem(breakdown: readonly string[], lines: LineSelection): string | null {
  if (breakdown.length === 0) return null
  const count = lineCount(breakdown, lines)
  if (count === 0) return 'No lines are chosen: pick at least one value, or turn on Total.'
  if (count > MAX_CHART_LINES) {
    const what = lines.mode === 'top' ? `the top ${lines.count}` : `${lines.values.length} picked values`
    return `This chart would draw ${count} lines (${what} plus Total), but the platform draws at most ${MAX_CHART_LINES} per chart. Choose fewer lines or turn off Total.`
  }
  return null
}
