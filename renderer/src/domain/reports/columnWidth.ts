/** About one tabular digit of the table's 14 px text, in CSS pixels (a comma or a point is narrower). */
const CHARACTER_PX = 8.5
/** A cell's left and right padding, and the sorter's room in a sortable header. */
const CELL_PADDING_PX = 28

/**
 * The width a column of numbers needs to show its longest value on one line, never less than
 * `least`: at a fixed 96 px a ten-digit total ("16,418,400") wrapped in the middle of the number.
 */
export function numberColumnWidth(texts: readonly string[], least: number): number {
  let longest = 0
  for (const text of texts) if (text.length > longest) longest = text.length
  return Math.max(least, Math.ceil(longest * CHARACTER_PX + CELL_PADDING_PX))
}
