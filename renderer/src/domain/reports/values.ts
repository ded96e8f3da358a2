/**
 * Pasting a list into a filter: one value per line (a column copied from a spreadsheet), or
 * comma-separated when it is a single line. Values are trimmed; blanks and repeats dropped.
 */
export function splitPastedList(text: string): string[] {
  const parts = /[\r\n]/.test(text) ? text.split(/\r?\n|\r|\t/) : text.split(',')
  const seen = new Set<string>()
  const values: string[] = []
  for (const part of parts) {
    const value = part.trim()
    if (value === '' || seen.has(value)) continue
    seen.add(value)
    values.push(value)
  }
  return values
}

/** Whether a paste should become several values rather than one typed text. */
export function isList(text: string): boolean {
  return /[\r\n,\t]/.test(text.trim())
}

/** Adds values to a list, keeping its order and dropping repeats. */
export function mergeValues(current: readonly string[], added: readonly string[]): string[] {
  const merged = [...current]
  for (const value of added) if (!merged.includes(value)) merged.push(value)
  return merged
}
