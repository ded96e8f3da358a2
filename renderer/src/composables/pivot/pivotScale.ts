/**
 * The colour scale of a pivot's cells: one hue per value (metric), its strength by where the
 * number sits between the value's smallest and largest item cell. The fill is translucent and
 * at most 45% strong, so the theme's own text colour stays readable on it in light and dark.
 */
const HUES = [217, 14, 150, 275, 38, 190]
const STRONGEST = 0.45

export function cellFill(number: number | null | undefined, value: number, range: { min: number; max: number } | null): string | undefined {
  if (number === null || number === undefined || range === null) return undefined
  const span = range.max - range.min
  const share = span <= 0 ? 1 : Math.max(0, Math.min(1, (number - range.min) / span))
  const hue = HUES[value % HUES.length] as number
  return `hsla(${hue}, 80%, 55%, ${(0.04 + share * (STRONGEST - 0.04)).toFixed(3)})`
}
