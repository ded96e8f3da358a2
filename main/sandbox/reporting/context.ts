import type { FactTable } from '../data/facts'
import type { SeededEntities } from '../data/entities'
import type { KeyModel } from './keys'
import type { StoredMarker } from './markers'

/** What every reporting operation needs, passed in rather than reached for. */
export interface ReportContext {
  facts: FactTable
  entities: SeededEntities
  keys: KeyModel
  /** The clock: "today" and relative dates come from it. */
  now: () => Date
  /** Absolute report_url of the running sandbox (for marker referers). */
  reportUrl: string
  markers: readonly StoredMarker[]
  /** The user the token belongs to (private fields depend on it). */
  user: string
}
