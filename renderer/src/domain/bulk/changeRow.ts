import type { ChangeRecordView, EntityKindSpec } from '@contract'
import { fieldWords } from '../entities/fieldWords'

/** A change-log row's words: its kind, the entity it changed by name, and each changed field by its label with Yes/No. */
export interface ChangeRowWords {
  /** "Brands"; a kind the app does not list keeps its path name. */
  kind: string
  /** "Humongous Electronics (4)": the name after the change, else before it (a delete); the id alone when it has none. */
  entity: string
  /** "Open auction allowed: No → Yes, Name: Old → New", or "created" / "deleted". */
  change: string
}

export function changeRowWords(record: ChangeRecordView, spec: EntityKindSpec | undefined): ChangeRowWords {
  const words = fieldWords(spec)
  const id = record.id === null ? '—' : String(record.id)
  const name = words.nameOf(record.after) ?? words.nameOf(record.before)
  return { kind: spec?.label ?? record.kind, entity: name === null ? id : `${name} (${id})`, change: changeText(record, words) }
}

function changeText(record: ChangeRecordView, words: ReturnType<typeof fieldWords>): string {
  const { before, after } = record
  if (before === null) return 'created'
  if (after === null) return 'deleted'
  return [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]))
    .map((key) => `${words.label(key)}: ${words.value(before[key])} → ${words.value(after[key])}`)
    .join(', ')
}
