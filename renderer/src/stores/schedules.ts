import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { EventPayload, LedgerEntry, OsEntryState, Schedule, ScheduleDraft, SchedulesState } from '@contract'
import { api, toApiError, unwrap, type ApiError } from '../api/bridge'
import { EMPTY_LEDGER_FILTERS, ledgerQuery, type LedgerFilters } from '../domain/schedules/ledger'

const LEDGER_PAGE = 100

/**
 * Schedules and their run ledger as the page sees them. Main runs the scheduler; this store keeps
 * what `schedules:list` answers, follows `onScheduleRun` (a run ended: its line and the badge),
 * and pages through the ledger with the filters the user picked.
 */
export const useSchedulesStore = defineStore('schedules', () => {
  const state = ref<SchedulesState | null>(null)
  const error = ref<ApiError | null>(null)
  const entries = ref<LedgerEntry[]>([])
  const total = ref(0)
  const filters = ref<LedgerFilters>({ ...EMPTY_LEDGER_FILTERS })
  const ledgerError = ref<ApiError | null>(null)
  const ledgerLoading = ref(false)
  /** Runs started here and not yet ended, by schedule id: the Run now button spins. */
  const running = ref<Set<string>>(new Set())
  const failureCount = ref(0)
  let listening = false
  let ledgerAsked = 0

  const schedules = computed<Schedule[]>(() => state.value?.schedules ?? [])
  const osEntry = computed<OsEntryState | null>(() => state.value?.osEntry ?? null)

  async function load(): Promise<void> {
    try {
      state.value = await unwrap(api().schedules.list({}))
      failureCount.value = state.value.failureCount
      error.value = null
    } catch (failure) {
      error.value = toApiError(failure)
    }
  }

  /** The newest query wins: an answer to an older one (typing in the search) is dropped. */
  async function loadLedger(more = false): Promise<void> {
    const asked = ++ledgerAsked
    ledgerLoading.value = true
    try {
      const offset = more ? entries.value.length : 0
      const answer = await unwrap(api().schedules.ledger(ledgerQuery(filters.value, { offset, limit: LEDGER_PAGE })))
      if (asked !== ledgerAsked) return
      entries.value = more ? [...entries.value, ...answer.entries] : answer.entries
      total.value = answer.total
      ledgerError.value = null
    } catch (failure) {
      if (asked === ledgerAsked) ledgerError.value = toApiError(failure)
    } finally {
      if (asked === ledgerAsked) ledgerLoading.value = false
    }
  }

  async function save(draft: ScheduleDraft): Promise<Schedule> {
    const saved = await unwrap(api().schedules.save(draft))
    await load()
    return saved
  }

  async function remove(id: string): Promise<void> {
    await unwrap(api().schedules.delete({ id }))
    await load()
  }

  async function setEnabled(schedule: Schedule, enabled: boolean): Promise<void> {
    const { id, name, target, profileId, actions, cadence, timezone } = schedule
    const exportAction = actions.export && {
      format: actions.export.format,
      folderId: actions.export.folder.id,
      fileNamePattern: actions.export.fileNamePattern,
    }
    await save({ id, name, target, profileId, actions: { export: exportAction, checkAlerts: actions.checkAlerts }, cadence, timezone, enabled })
  }

  /** Resolves with the run's ledger line; the list and the ledger follow through `onScheduleRun`. */
  async function runNow(id: string): Promise<LedgerEntry> {
    running.value = new Set([...running.value, id])
    try {
      return await unwrap(api().schedules.runNow({ id }))
    } finally {
      const left = new Set(running.value)
      left.delete(id)
      running.value = left
      await Promise.all([load(), loadLedger()])
    }
  }

  async function clearFailures(): Promise<void> {
    if (failureCount.value === 0) return
    failureCount.value = (await unwrap(api().schedules.clearFailures({}))).failureCount
  }

  async function setOsEntry(install: boolean): Promise<void> {
    const entry = await unwrap(install ? api().schedules.installEntry({}) : api().schedules.removeEntry({}))
    if (state.value) state.value = { ...state.value, osEntry: entry }
  }

  async function setKeepRunning(keepRunning: boolean): Promise<void> {
    const answer = await unwrap(api().schedules.setKeepRunning({ keepRunning }))
    if (state.value) state.value = { ...state.value, keepRunningInBackground: answer.keepRunningInBackground }
  }

  function onRun({ entry, failureCount: failures }: EventPayload<'onScheduleRun'>): void {
    failureCount.value = failures
    if (state.value) {
      state.value = {
        ...state.value,
        schedules: state.value.schedules.map((schedule) => (schedule.id === entry.scheduleId ? { ...schedule, lastRun: entry } : schedule)),
      }
    }
    if (!entries.value.some((line) => line.id === entry.id)) void loadLedger()
  }

  /** Once per page: the badge counts failures whichever screen is shown. */
  function listen(): void {
    if (listening) return
    listening = true
    api().onScheduleRun(onRun)
    void load()
  }

  return {
    state,
    error,
    schedules,
    osEntry,
    entries,
    total,
    filters,
    ledgerError,
    ledgerLoading,
    running,
    failureCount,
    load,
    loadLedger,
    save,
    remove,
    setEnabled,
    runNow,
    clearFailures,
    setOsEntry,
    setKeepRunning,
    listen,
  }
})
