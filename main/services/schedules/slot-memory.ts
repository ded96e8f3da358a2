/**
 * What this process knows of its runs beyond the ledger: the latest slot each schedule's runs
 * were planned for (so a slot whose line the ledger refused still counts as handled here), the
 * runs the ledger refused (shown and counted with the ledger's own), and the backoff of a
 * schedule whose lock or line the data folder refused: a full disk makes every run fail the same
 * way, so the schedule waits (doubling, capped) instead of running the next slot a minute later.
 */
import type { LedgerEntry } from '@contract'
import type { RunReport } from './runner'

/** The first wait after a run the data folder refused, doubled at each refusal in a row, up to the cap. */
export const STORAGE_BACKOFF = { firstMs: 15 * 60 * 1000, capMs: 6 * 60 * 60 * 1000 } as const
/** Runs the ledger refused, kept in memory (the latest ones). */
export const UNRECORDED_KEPT = 100

interface ScheduleMemory {
  handledThrough: number
  notBefore: number
  refusals: number
}

export interface SlotMemory {
  /** A run ended: its slot is handled for this process; a refused lock or line backs its schedule off. */
  ended(report: RunReport, now: Date): void
  /** The ledger's latest planned slot per schedule, raised to what this process handled. */
  lastPlanned(fromLedger: Map<string, number>): Map<string, number>
  /** The schedule waits after refusals: its slots are not looked at before then. */
  backedOff(scheduleId: string, now: Date): boolean
  /** The ledger's lines with the runs it refused, in the order they started. */
  withUnrecorded(entries: readonly LedgerEntry[]): LedgerEntry[]
  /** Failed runs that started after `seenAt` (the badge's count), the refused ones included. */
  failedSince(entries: readonly LedgerEntry[], seenAt: string | null): number
}

export function createSlotMemory(): SlotMemory {
  const bySchedule = new Map<string, ScheduleMemory>()
  const unrecorded: LedgerEntry[] = []

  function withUnrecorded(entries: readonly LedgerEntry[]): LedgerEntry[] {
    if (unrecorded.length === 0) return [...entries]
    // Stable: the ledger's own order is kept among lines that started at the same time.
    return [...entries, ...unrecorded].sort((a, b) => Date.parse(a.startedAt) - Date.parse(b.startedAt))
  }

  return {
    ended({ entry, recorded, storageFailed }, now) {
      if (!recorded) {
        unrecorded.push(entry)
        if (unrecorded.length > UNRECORDED_KEPT) unrecorded.shift()
      }
      // A manual run has no slot; it backs nothing off (the next scheduled run finds the disk as it is).
      if (entry.trigger !== 'schedule' || entry.plannedAt === null) return
      const known = bySchedule.get(entry.scheduleId) ?? { handledThrough: -Infinity, notBefore: -Infinity, refusals: 0 }
      const refusals = storageFailed ? known.refusals + 1 : 0
      const wait = refusals === 0 ? 0 : Math.min(STORAGE_BACKOFF.firstMs * 2 ** (refusals - 1), STORAGE_BACKOFF.capMs)
      bySchedule.set(entry.scheduleId, {
        handledThrough: Math.max(known.handledThrough, Date.parse(entry.plannedAt)),
        notBefore: now.getTime() + wait,
        refusals,
      })
    },
    lastPlanned(fromLedger) {
      const merged = new Map(fromLedger)
      for (const [scheduleId, known] of bySchedule) merged.set(scheduleId, Math.max(merged.get(scheduleId) ?? -Infinity, known.handledThrough))
      return merged
    },
    backedOff: (scheduleId, now) => now.getTime() < (bySchedule.get(scheduleId)?.notBefore ?? -Infinity),
    withUnrecorded,
    failedSince(entries, seenAt) {
      const seen = seenAt === null ? -Infinity : Date.parse(seenAt)
      return withUnrecorded(entries).filter((entry) => entry.outcome === 'failed' && Date.parse(entry.startedAt) > seen).length
    },
  }
}
