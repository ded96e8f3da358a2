/**
 * A tabular digit of the table's 14 px text, in CSS pixels: 0.636 em, the widest of the system
 * fonts the app meets (DejaVu Sans; SF and Segoe UI are narrower). Separators take half of it.
 */
const DIGIT_PX = 8.9
const SEPARATOR_PX = 4.45
/** A cell's left and right padding: 8 px each side in Naive UI's small table, the series table's size. */
const CELL_PADDING_PX = 16

/** How wide a number's text is, in CSS pixels, at most. */
function textWidth(text: string): number {
  let width = 0
  for (const character of text) width += character === ',' || character === '.' ? SEPARATOR_PX : DIGIT_PX
  return width
}

/**
 * The width a column of numbers needs to show its longest value on one line, never less than
 * `least`: at a fixed 96 px a ten-digit total ("16,418,400") wrapped in the middle of the number.
 */
export function numberColumnWidth(texts: readonly string[], least: number): number {
  let widest = 0
  for (const text of texts) widest = Math.max(widest, textWidth(text))
  return Math.max(least, Math.ceil(widest + CELL_PADDING_PX))
}
