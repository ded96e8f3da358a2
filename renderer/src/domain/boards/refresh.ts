/**
 * Refreshing a board's tiles: a few at a time (the platform's per-token budget is shared by every
 * tile), a 429 pausing every worker for the wait the platform asked for before the same tile is
 * tried again, each tile's state reported as it changes, and a cancel that stops what waits and
 * aborts what runs. Pure but for what it is given, so the rules are tested with fakes.
 */
export type TileRefreshStatus = 'waiting' | 'running' | 'done' | 'error' | 'cancelled'

export interface TileRefreshState {
  status: TileRefreshStatus
  /** The sentence the user sees when the tile failed; null otherwise. */
  error: string | null
}

/** A failure as the bridge reports it (ApiError has these). */
export interface RefreshFailure {
  code?: string
  message?: string
  details?: { retryAfterSeconds?: number | undefined } | undefined
}

export interface RefreshPlan {
  ids: readonly string[]
  /** Tiles run at once: 2–4 (clamped), so a board of 12 never spends the whole rate budget at once. */
  concurrency: number
  run(id: string, signal: AbortSignal): Promise<void>
  onState(id: string, state: TileRefreshState): void
  /** Resolves after the time, or at once when the signal aborts (a manual clock in tests). */
  wait(milliseconds: number, signal: AbortSignal): Promise<void>
  signal: AbortSignal
  /** A tile throttled more often than this fails with the platform's sentence. */
  maxThrottleRetries?: number
}

export const REFRESH_CONCURRENCY = { min: 2, max: 4, default: 3 } as const
/** When a 429 names no wait, this long (seconds). */
const DEFAULT_RETRY_SECONDS = 5

export async function refreshTiles(plan: RefreshPlan): Promise<void> {
  const { ids, run, onState, wait, signal } = plan
  const limit = Math.min(REFRESH_CONCURRENCY.max, Math.max(REFRESH_CONCURRENCY.min, Math.round(plan.concurrency)))
  const maxRetries = plan.maxThrottleRetries ?? 3
  const queue = [...ids]
  const throttledTimes = new Map<string, number>()
  /** Set while the platform asked everyone to wait: workers finish that wait before starting another tile. */
  let pause: Promise<void> | null = null
  for (const id of ids) onState(id, { status: 'waiting', error: null })

  async function worker(): Promise<void> {
    for (;;) {
      while (pause !== null) await pause
      if (signal.aborted) return
      const id = queue.shift()
      if (id === undefined) return
      onState(id, { status: 'running', error: null })
      try {
        await run(id, signal)
        onState(id, signal.aborted ? { status: 'cancelled', error: null } : { status: 'done', error: null })
      } catch (caught) {
        const failure = (caught ?? {}) as RefreshFailure
        if (signal.aborted || failure.code === 'cancelled') {
          onState(id, { status: 'cancelled', error: null })
          continue
        }
        const times = (throttledTimes.get(id) ?? 0) + 1
        if (failure.code === 'throttled' && times <= maxRetries) {
          throttledTimes.set(id, times)
          queue.unshift(id)
          onState(id, { status: 'waiting', error: null })
          const seconds = failure.details?.retryAfterSeconds ?? DEFAULT_RETRY_SECONDS
          if (pause === null) {
            const waiting = wait(seconds * 1000, signal).then(() => {
              if (pause === waiting) pause = null
            })
            pause = waiting
          }
          continue
        }
        onState(id, { status: 'error', error: failure.message ?? String(caught) })
      }
    }
  }

  await Promise.all(Array.from({ length: Math.min(limit, ids.length) }, worker))
  for (const id of queue) onState(id, { status: 'cancelled', error: null })
}
