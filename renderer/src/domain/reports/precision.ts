/**
 * The audience precision control: `audience_rows_limit` from 10,000 to 10,000,000 records, on a
 * 1-2-5 log scale so each step means something (the slider works on step positions).
 */
export const ROWS_STEPS: readonly number[] = [10_000, 20_000, 50_000, 100_000, 200_000, 500_000, 1_000_000, 2_000_000, 5_000_000, 10_000_000]

export function rowsAt(position: number): number {
  const index = Math.max(0, Math.min(ROWS_STEPS.length - 1, Math.round(position)))
  return ROWS_STEPS[index] as number
}

/** The step position closest (on the log scale) to a limit. */
export function positionOf(rows: number): number {
  let best = 0
  for (let index = 1; index < ROWS_STEPS.length; index++) {
    if (Math.abs(Math.log(rows / (ROWS_STEPS[index] as number))) < Math.abs(Math.log(rows / (ROWS_STEPS[best] as number)))) best = index
  }
  return best
}

export function rowsLabel(rows: number): string {
  if (rows >= 1_000_000) return `${rows / 1_000_000}M`
  return `${rows / 1_000}k`
}
