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
