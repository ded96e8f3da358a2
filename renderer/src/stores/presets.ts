import { defineStore } from 'pinia'
import { computed, ref, shallowRef, watch } from 'vue'
import type { FileProblem, Preset, PresetSummary, ReportDefinition } from '@contract'
import { api, toApiError, unwrap, type ApiError } from '../api/bridge'
import { plainDefinition } from '../domain/reports/definition'
import { nextPaint } from '../lib/idle'
import { sameAnswer } from '../lib/sameAnswer'
import { useNavigationStore } from './navigation'
import { useReportsStore } from './reports'

/** Errors that mean "the platform could not be reached", after which a kept result is still worth showing. */
const UNREACHABLE = new Set(['network', 'timeout'])

/** Same definition, whatever the order of keys: the "Edited" mark must not flicker on key order. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical)
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    )
  }
  return value
}
export const sameDefinition = (left: ReportDefinition, right: ReportDefinition): boolean => JSON.stringify(canonical(left)) === JSON.stringify(canonical(right))

/** The words a preset is found by: its name, description, report and fields. */
export const searchText = (preset: PresetSummary): string =>
  [preset.name, preset.description, preset.report, preset.project, ...preset.metrics, ...preset.breakdown].join(' ').toLowerCase()

/**
 * Saved reports: the list main keeps on disk, the preset open in the builder (with the
 * definition as saved, for the "Edited" mark), and the file work (import, export) main does
 * behind its own dialogs.
 */
export const usePresetsStore = defineStore('presets', () => {
  const reports = useReportsStore()
  // A thousand summaries are read, never edited in place: a new list replaces the old one, so nothing deep is reactive.
  const presets = shallowRef<readonly PresetSummary[]>([])
  const refused = ref<FileProblem[]>([])
  const search = ref('')
  const loading = ref(false)
  const error = shallowRef<ApiError | null>(null)
  /** The preset in the builder, as last saved or opened. */
  const current = shallowRef<Preset | null>(null)
  /** A preset an `adopsdesk://preset/…` link asked for, opened by the Reports view when it is shown. */
  const requested = ref<string | null>(null)
  /** A preset the user chose elsewhere (the palette), opened by the Reports view when shown without asking. */
  const picked = ref<string | null>(null)
  /** The line the chosen preset opens on (an alert's link): the chart shows it and the total. */
  let pickedLine: string | null = null
  let listening = false
  /** Why the last run of an opened preset could not reach the platform (main's sentence): the kept chart stays, with this said over it. */
  const offlineNote = ref<string | null>(null)
  /** A preset opened with no result kept for it and the platform out of reach (main's sentence why). */
  const unreached = shallowRef<{ preset: string; reason: string } | null>(null)
  /** Said while nothing else is shown in its place: no chart came since, and no other error. */
  const unavailable = computed(() =>
    reports.result === null && reports.infoError === null && reports.chartError === null && !reports.infoLoading ? unreached.value : null,
  )

  /** What the search looks in, lower-cased once per list rather than once per preset per keystroke. */
  const searchable = computed(() => presets.value.map((preset) => ({ preset, text: searchText(preset) })))
  const filtered = computed<readonly PresetSummary[]>(() => {
    const words = search.value.trim().toLowerCase().split(/\s+/).filter(Boolean)
    if (words.length === 0) return presets.value
    return searchable.value.filter(({ text }) => words.every((word) => text.includes(word))).map(({ preset }) => preset)
  })
  const edited = computed(() => current.value !== null && reports.definition !== null && !sameDefinition(current.value.definition, reports.definition))

  async function load(): Promise<void> {
    loading.value = true
    try {
      const answer = await unwrap(api().presets.list({}))
      // The list is read at idle after start-up and again when the panel is shown: the same list keeps its array, so nothing renders again.
      if (!sameAnswer(presets.value, answer.presets)) presets.value = answer.presets
      if (!sameAnswer(refused.value, answer.refused)) refused.value = answer.refused
      error.value = null
    } catch (failure) {
      error.value = toApiError(failure)
    } finally {
      loading.value = false
    }
  }

  /**
   * Counts opens (presets, history entries, pastes): two quick clicks read their preset and kept
   * result concurrently, and the later click must win even when the earlier one's reads end last.
   */
  let opening = 0

  /** Shows the preset's kept chart at once, then runs it again; offline, the kept chart stays and says so. */
  async function open(name: string, runAgain = true): Promise<void> {
    const turn = ++opening
    const preset = await unwrap(api().presets.get({ name }))
    if (turn !== opening) return
    await show(preset.definition, preset.name, preset.name, runAgain, () => (current.value = preset), turn)
  }

  /**
   * Puts a definition in the builder with the chart last kept for it (`keptUnder`: the preset
   * its result was kept under), then runs it when asked. `from` is the preset runs count for.
   */
  async function show(
    definition: ReportDefinition,
    from: string | null,
    keptUnder: string | null,
    runAgain: boolean,
    opened: () => void = detach,
    turn = ++opening,
  ): Promise<void> {
    const profileId = reports.profileId
    // The report's info is asked for while main reads the kept chart: load() then finds it on its way.
    reports.prefetchInfo(definition.project, definition.report)
    unreached.value = null
    const kept = profileId ? await keptChart(profileId, definition, keptUnder) : null
    if (turn !== opening) return
    if (!(await reports.load(definition, from, kept))) {
      // Not even the report's description is on this computer: one sentence for the whole of it.
      if (from !== null && reports.infoError && UNREACHABLE.has(reports.infoError.code)) noResultKept(from, reports.infoError.message)
      return
    }
    opened()
    offlineNote.value = null
    if (!runAgain) return
    // The kept chart is painted first: starting the run (its request, the buttons' busy state) in the same task held back that frame.
    if (kept) await nextPaint()
    if (turn !== opening || reports.chartBlocked !== null) return
    await reports.run()
    const failure = reports.chartError
    if (failure && UNREACHABLE.has(failure.code) && kept && reports.result === kept.result) {
      // One message, not two: the offline banner says why, over the kept chart, instead of a "could not run" error above it.
      offlineNote.value = failure.message
      reports.chartError = null
    } else if (failure && UNREACHABLE.has(failure.code) && !kept && from !== null) noResultKept(from, failure.message)
  }

  /** Says it once, in the presets' words: the report's own error (a run's, an info's) is not said beside it. */
  function noResultKept(preset: string, reason: string): void {
    unreached.value = { preset, reason }
    reports.infoError = null
    reports.chartError = null
  }

  async function keptChart(profileId: string, definition: ReportDefinition, preset: string | null) {
    try {
      const budget = reports.pointBudget === undefined ? {} : { pointBudget: reports.pointBudget }
      const cached = await unwrap(api().results.get({ profileId, definition: plainDefinition(definition), preset, kind: 'chart', ...budget }))
      return cached?.kind === 'chart' ? { ranAt: cached.ranAt, result: cached.result } : null
    } catch {
      // No kept result is only a slower first paint.
      return null
    }
  }

  /** Ctrl/Cmd+S: overwrites the open preset; without one, the caller asks for a name (Save as). */
  async function save(name: string, replace: boolean): Promise<Preset | null> {
    const definition = reports.definition
    if (!definition) return null
    const saved = await unwrap(
      api().presets.save({
        name,
        definition: plainDefinition(definition),
        replace,
        description: current.value?.name === name ? current.value.description : undefined,
      }),
    )
    current.value = saved
    reports.preset = saved.name
    await load()
    return saved
  }

  async function rename(name: string, newName: string): Promise<void> {
    const renamed = await unwrap(api().presets.rename({ name, newName }))
    if (current.value?.name === name) {
      current.value = renamed
      reports.preset = renamed.name
    }
    await load()
  }

  async function duplicate(name: string): Promise<Preset> {
    const copy = await unwrap(api().presets.duplicate({ name }))
    await load()
    return copy
  }

  /** Main keeps the deleted preset restorable until the app quits: the caller offers Undo. */
  async function remove(name: string): Promise<void> {
    await unwrap(api().presets.delete({ name }))
    if (current.value?.name === name) {
      current.value = null
      reports.preset = null
    }
    await load()
  }

  async function restore(name: string): Promise<void> {
    await unwrap(api().presets.restore({ name }))
    await load()
  }

  async function importFiles() {
    const answer = await unwrap(api().presets.import({}))
    if (!answer.cancelled) await load()
    return answer
  }

  async function exportFile(names: string[]) {
    return unwrap(api().presets.export({ names }))
  }

  /** The builder now holds something that is no preset (a paste, a new report). */
  function detach(): void {
    current.value = null
    reports.preset = null
  }

  // Another connection starts the builder afresh: whatever preset was open is no longer in it.
  watch(
    () => reports.profileId,
    () => {
      current.value = null
      offlineNote.value = null
      unreached.value = null
    },
  )

  /** Once, at app start: a preset link switches to Reports and opens the preset there. */
  function listen(): void {
    if (listening) return
    listening = true
    const navigation = useNavigationStore()
    api().onOpenPreset(({ name }) => {
      requested.value = name
      navigation.open('reports')
    })
  }

  /** The user chose a preset away from Reports (the palette, an alert with its line): Reports opens and runs it. */
  function openInReports(name: string, line: string | null = null): void {
    pickedLine = line
    picked.value = name
    useNavigationStore().open('reports')
  }

  /** The Reports view takes the chosen preset and the line it opens on; null when there is none. */
  function takePicked(): { name: string; line: string | null } | null {
    const name = picked.value
    picked.value = null
    const line = pickedLine
    pickedLine = null
    return name === null ? null : { name, line }
  }

  /** The Reports view takes the linked preset; null when there is none. */
  function takeRequested(): string | null {
    const name = requested.value
    requested.value = null
    return name
  }

  return {
    requested,
    picked,
    listen,
    takeRequested,
    openInReports,
    takePicked,
    presets,
    refused,
    search,
    loading,
    error,
    current,
    offlineNote,
    unavailable,
    filtered,
    edited,
    load,
    open,
    show,
    save,
    rename,
    duplicate,
    remove,
    restore,
    importFiles,
    exportFile,
    detach,
  }
})
