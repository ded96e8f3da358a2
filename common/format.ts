/**
 * How a number of bytes reads everywhere in the app (jobs panel, notifications, the command
 * line, error sentences): one decimal below 100 of a unit, whole numbers above. "15.3 MB" in
 * the panel is "15.3 MB" in the notification too.
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  const units = ['KB', 'MB', 'GB', 'TB']
  let value = bytes / 1024
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit += 1
  }
  return `${value >= 100 ? Math.round(value) : value.toFixed(1)} ${units[unit] ?? 'TB'}`
}

/**
 * A formatted number with the minus sign U+2212 ("−38"), not the hyphen Intl writes ("-38"): the
 * screens' one minus, as the change column's "−0.3%" has it. For text shown only: files keep
 * numbers as numbers, and a spreadsheet does not read "−38" as one.
 */
export const withMinusSign = (text: string): string => (text.startsWith('-') ? `−${text.slice(1)}` : text)
