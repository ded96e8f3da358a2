import type { ChangeRecordView, EntityKindSpec } from '@contract'
import { formatDateTime } from '../../../../common/date-format'
import { fieldWords } from './fieldWords'

/**
 * What the drawer says of an entity's latest applied change in this connection's change log:
 * "Changed here 3 Dec 2026, 14:02 — Name, Advertiser domains", "Created here …", or
 * "Not changed here" when the log holds none (the platform's other users are not in it).
 */
export function changedHereSentence(record: ChangeRecordView | null, spec: EntityKindSpec, formatTime: (iso: string) => string = formatDateTime): string {
  if (record === null) return 'Not changed here'
  const when = formatTime(record.at)
  const { before, after } = record
  if (before === null) return `Created here ${when}`
  if (after === null) return `Deleted here ${when}`
  const words = fieldWords(spec)
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]))
    .map((key) => words.label(key))
  return fields.length === 0 ? `Changed here ${when}` : `Changed here ${when} — ${fields.join(', ')}`
}
