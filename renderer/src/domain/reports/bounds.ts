/**
 * A number typed into a bounded field, as the definition keeps it: whole, and inside the field's
 * bounds (the limits in common/limits.ts). Naive's number inputs let any number through while
 * typing; what reaches the definition is always one the contract accepts.
 */
export function wholeWithin(value: number, bounds: { readonly min: number; readonly max: number }): number {
  return Math.max(bounds.min, Math.min(bounds.max, Math.round(value)))
}
