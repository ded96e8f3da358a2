/**
 * The one CSV writer of the app (entity exports) and the command line (`entities list --format csv`).
 *
 * CSV injection (OWASP): a spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` as a
 * formula (tab and carriage return can smuggle one in), so an entity named
 * `=HYPERLINK("https://evil.example", …)` would become a live link or worse in the user's
 * spreadsheet. Such a text cell is written with a leading `'`, which spreadsheets read as
 * "this is text", and quoted. Column titles are cells too and get the same treatment.
 *
 * A cell can also smuggle a formula past its first character: a spreadsheet that splits on `;`
 * (most European locales), on tabs, or on the line breaks inside a quoted cell reads
 * `Acme;=cmd|' /C calc'!A0` as `Acme` and a live `=cmd…`. So a text that holds a separator-like
 * character (`;` `,` tab, CR, LF) right before a formula start is treated the same way, and any
 * text with `;` or a tab is quoted so that a `;`- or tab-splitting reader keeps it in one cell.
 *
 * Numbers stay numbers: a value that is a finite JavaScript number (`-5`) is written as is,
 * since it is data, not a formula. The same characters in a text value (`"-5"`) cannot be
 * told apart from an attack, so they are neutralised; the cell then reads `'-5` as text.
 */
const FORMULA = /^[=+\-@\t\r]|[;,\t\r\n][=+\-@]/

/** One CSV field (RFC 4180): quoted when it holds a quote, a separator, a line break or edge spaces; objects as JSON. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  const text = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value)
  if (FORMULA.test(text)) return quoted(`'${text}`)
  return /[",;\t\r\n]|^\s|\s$/.test(text) ? quoted(text) : text
}

function quoted(text: string): string {
  return `"${text.replace(/"/g, '""')}"`
}

export function csvRow(values: readonly unknown[]): string {
  return `${values.map(csvField).join(',')}\r\n`
}
