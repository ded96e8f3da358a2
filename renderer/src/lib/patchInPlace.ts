type Container = Record<string, unknown> | unknown[]

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * Keys that would reach an object's prototype rather than its data. JSON.parse makes
 * `"__proto__"` an own key of what it returns, so a definition read from a file could carry one:
 * patching through it would change Object.prototype for the whole page.
 */
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype'])

/** Makes the slot `key` of `target` equal to `next`: containers of the same shape are patched, anything else is replaced. */
function patchSlot(target: Container, key: string | number, next: unknown): void {
  if (typeof key === 'string' && UNSAFE_KEYS.has(key)) return
  const current = (target as Record<string | number, unknown>)[key]
  if (isRecord(current) && isRecord(next)) patchInPlace(current, next)
  else if (Array.isArray(current) && Array.isArray(next)) patchArray(current, next)
  else if (current !== next || !(key in target)) (target as Record<string | number, unknown>)[key] = next
}

function patchArray(target: unknown[], next: readonly unknown[]): void {
  if (target.length > next.length) target.splice(next.length)
  next.forEach((value, index) => patchSlot(target, index, value))
}

/**
 * Makes `target` (plain JSON data, usually reactive) equal to `source` by writing only what
 * differs. Vue then re-renders only what reads a changed value: loading a report definition
 * that shares most of its fields with the one in the builder (another preset of the same
 * report) leaves the untouched fields' components alone, where assigning a new object made
 * every field of the builder render again in the same task as the chart.
 */
export function patchInPlace(target: Record<string, unknown>, source: Readonly<Record<string, unknown>>): void {
  for (const key of Object.keys(target)) if (!(key in source)) delete target[key]
  for (const [key, next] of Object.entries(source)) patchSlot(target, key, next)
}
