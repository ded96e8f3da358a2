import { formatChange } from '../charts/value-format'
import type { PivotColumn } from './types'

/**
 * A pivot cell as the screens write it, the Reports pivot and a board's pivot tile alike: a change
 * in percent as "+12.3%" / "−4.0%", a change in value with its sign ("+5", "−38": the number
 * formatter writes U+2212), a value as its formatter writes it.
 */
export function pivotCellText(number: number, column: Pick<PivotColumn, 'measure'>, formatNumber: (number: number) => string): string {
  if (column.measure === 'percent') return formatChange(number)
  const text = formatNumber(number)
  return column.measure === 'change' && number > 0 ? `+${text}` : text
}
