import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { EventPayload, ExportEstimate, ExportJob, ExportOptions, ExportPreview, ExportSource } from '@contract'
import { api, toApiError, unwrap, type ApiError } from '../api/bridge'
import { isActive } from '../domain/exports/progress'

type Progress = EventPayload<'onExportProgress'>

/** A job as the panel shows it: the history's line with the newest progress on top. */
export type ShownJob = ExportJob & { bytesPerSecond: number; elapsedMs: number | null }

/**
 * Export jobs as the page sees them: main runs them; this store keeps the list main answers
 * once, follows `onExportProgress` / `onExportDone`, and holds what the Export… dialog and the
 * jobs drawer are showing.
 */
export const useExportsStore = defineStore('exports', () => {
  const jobs = ref<ExportJob[]>([])
  const progress = ref<Record<string, Progress>>({})
  /** Rows the estimate expected for a job started here (exact estimates only), for a bar that fills. */
  const expected = ref<Record<string, number>>({})
  const loaded = ref(false)
  const error = ref<ApiError | null>(null)
  const dialogSource = ref<ExportSource | null>(null)
  /**
   * Set by the `export` command outside Reports: the builder opens Export… for its report once
   * it is shown and has its definition (ExportButton), as `newConnectionRequested` does for Connections.
   */
  const builderExportRequested = ref(false)
  const panelOpen = ref(false)
  let listening = false
  let reloading: Promise<void> | null = null

  const shown = computed<ShownJob[]>(() =>
    jobs.value.map((job) => {
      const live = progress.value[job.id]
      if (!live || !isActive(job)) return { ...job, bytesPerSecond: 0, elapsedMs: job.durationMs }
      return { ...job, state: live.state, bytes: live.bytes, rows: live.rows, bytesPerSecond: live.bytesPerSecond, elapsedMs: live.elapsedMs }
    }),
  )
  const running = computed(() => shown.value.filter(isActive).length)

  /**
   * A job that has ended never runs again, but a list answered before it ended can arrive after
   * its done event (the answer and the event travel separately): the ended line wins.
   */
  function merged(listed: ExportJob[]): ExportJob[] {
    const ended = new Map(jobs.value.filter((job) => !isActive(job)).map((job) => [job.id, job]))
    return listed.map((job) => (isActive(job) ? (ended.get(job.id) ?? job) : job))
  }

  async function load(): Promise<void> {
    try {
      jobs.value = merged((await unwrap(api().exports.list({}))).jobs)
      error.value = null
    } catch (failure) {
      error.value = toApiError(failure)
    } finally {
      loaded.value = true
    }
  }

  /** One list call at a time: a burst of events for jobs this page has not seen asks once. */
  function reload(): Promise<void> {
    reloading ??= load().finally(() => (reloading = null))
    return reloading
  }

  function onProgress(payload: Progress): void {
    const job = jobs.value.find((candidate) => candidate.id === payload.jobId)
    // A progress event that arrives after the job's done event is late news, not a restart.
    if (job && !isActive(job)) return
    progress.value = { ...progress.value, [payload.jobId]: payload }
    // Started elsewhere (another window, before this page loaded): main's list has its file name.
    if (!job) void reload()
    else if (job.state !== payload.state)
      jobs.value = jobs.value.map((candidate) => (candidate.id === job.id ? { ...candidate, state: payload.state } : candidate))
  }

  function onDone(job: ExportJob): void {
    const known = jobs.value.some((candidate) => candidate.id === job.id)
    jobs.value = known ? jobs.value.map((candidate) => (candidate.id === job.id ? job : candidate)) : [job, ...jobs.value]
    const { [job.id]: _ended, ...others } = progress.value
    progress.value = others
  }

  /** Once, at app start: the list, then main's events keep it current. */
  async function listen(): Promise<void> {
    if (listening) return
    listening = true
    api().onExportProgress(onProgress)
    api().onExportDone(onDone)
    await load()
  }

  /** Opens the Export… dialog for the builder's definition or a preset. */
  function openDialog(source: ExportSource): void {
    dialogSource.value = source
  }
  function closeDialog(): void {
    dialogSource.value = null
  }

  /** Starts a job (main opens the save dialog); null when the user cancelled it. */
  async function start(profileId: string, source: ExportSource, options: ExportOptions, expectedRows: number | null = null) {
    const started = await unwrap(api().exports.start({ profileId, source, options }))
    if (started === null) return null
    if (expectedRows !== null) expected.value = { ...expected.value, [started.jobId]: expectedRows }
    await reload()
    return started
  }

  async function cancel(jobId: string): Promise<void> {
    await unwrap(api().exports.cancel({ jobId }))
  }

  const open = (jobId: string): Promise<null> => unwrap(api().exports.open({ jobId }))
  const reveal = (jobId: string): Promise<null> => unwrap(api().exports.reveal({ jobId }))
  const preview = (jobId: string): Promise<ExportPreview> => unwrap(api().exports.preview({ jobId }))
  const estimate = (profileId: string, source: ExportSource, options: ExportOptions, requestId: string): Promise<ExportEstimate> =>
    unwrap(api().exports.estimate({ profileId, source, options, requestId }))

  return {
    jobs,
    shown,
    running,
    expected,
    loaded,
    error,
    dialogSource,
    builderExportRequested,
    panelOpen,
    listen,
    load,
    openDialog,
    closeDialog,
    start,
    cancel,
    open,
    reveal,
    preview,
    estimate,
  }
})
