import { formatDate } from '../../../common/date-format'
import { withMinusSign } from '../../../common/format'

/** Numbers and times as the screens show them (negative ones with the minus sign U+2212). */

/** "just now", "5 minutes ago", "3 hours ago", "2 days ago", then the date. */
export function relativeTime(iso: string, now: number): string {
  const then = new Date(iso).getTime()
  if (Number.isNaN(then)) return 'at an unknown time'
  const seconds = Math.round((now - then) / 1000)
  if (seconds < 45) return 'just now'
  const minutes = Math.round(seconds / 60)
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'} ago`
  const hours = Math.round(minutes / 60)
  if (hours < 24) return `${hours} hour${hours === 1 ? '' : 's'} ago`
  const days = Math.round(hours / 24)
  if (days < 14) return `${days} day${days === 1 ? '' : 's'} ago`
  return `on ${formatDate(iso)}`
}

export const formatCount = (value: number): string => withMinusSign(value.toLocaleString('en-US'))

/** "1 row", "8 rows", "1,000 columns": a count with its noun in the right number (nouns that take an s). */
export function counted(number: number, noun: string): string {
  return `${formatCount(number)} ${noun}${number === 1 ? '' : 's'}`
}

/** Made once: toLocaleString with options builds a formatter per call (per cell, per frame of a pivot's scroll). */
const plainNumber = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 })

/** "1,234.57": a number with separators and at most two decimals. */
export const formatPlainNumber = (number: number): string => withMinusSign(plainNumber.format(number))
