/**
 * Why a workbook could not be read, as the sentence the user reads (what happened, what to do).
 * Thrown inside the XLSX reader only (xlsx-unzip, xlsx-sheet-scanner, read-xlsx), which turns it
 * into the table's problem: never a raw error.
 */
export class XlsxProblem extends Error {
  override name = 'XlsxProblem'
}

export const NOT_A_WORKBOOK = 'The file is not a readable XLSX workbook; save it again from the spreadsheet, or export it as CSV.'

/** Said when a part's XML opens `<tag>` and never closes it (a cut or crafted file). */
export function cutShort(part: string, tag: string): XlsxProblem {
  return new XlsxProblem(`The workbook's ${part} is cut short: a <${tag}> is never closed; save the workbook again from the spreadsheet, or export it as CSV.`)
}
