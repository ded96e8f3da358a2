/** Whatever was thrown or rejected (an Error, a string, anything), as a message and maybe a stack. */
export function describeThrown(value: unknown): { message: string; stack?: string } {
  if (value instanceof Error)
    return value.stack === undefined ? { message: value.message || value.name } : { message: value.message || value.name, stack: value.stack }
  if (typeof value === 'string') return { message: value }
  try {
    return { message: JSON.stringify(value) ?? String(value) }
  } catch {
    return { message: String(value) }
  }
}
