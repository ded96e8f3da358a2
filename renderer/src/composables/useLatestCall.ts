import { computed, getCurrentScope, onScopeDispose, shallowRef, type ComputedRef, type ShallowRef } from 'vue'
import { api, toApiError, unwrap, type ApiError } from '../api/bridge'
import { newRequestId } from '../lib/requestId'

/** A call in flight: the id main can cancel it by, and when it started (the page shows for how long). */
export interface Running {
  requestId: string
  startedAt: number
}

/** A trailing debounce: the function runs once calls stop coming for the delay, with the last arguments. */
export interface Debounced<Args extends unknown[]> {
  (...args: Args): void
  /** Forgets a call still waiting. */
  cancel(): void
}

/**
 * A tiny typed debounce (VueUse's useDebounceFn would do, but it is not a dependency). Timers are
 * the page's own, so tests drive them with vi.useFakeTimers().
 */
export function debounce<Args extends unknown[]>(run: (...args: Args) => void, delayMs: number): Debounced<Args> {
  let timer: ReturnType<typeof setTimeout> | null = null
  const cancel = (): void => {
    if (timer !== null) clearTimeout(timer)
    timer = null
  }
  const debounced = (...args: Args): void => {
    cancel()
    timer = setTimeout(() => {
      timer = null
      run(...args)
    }, delayMs)
  }
  return Object.assign(debounced, { cancel })
}

export interface LatestCallOptions<Args extends unknown[], T> {
  /** The latest call answered; not called for an answer a newer call (or abandon()) has replaced. */
  onValue?: (value: T, ...args: Args) => void
  /** The latest call failed (main's `cancelled` included), always as an ApiError. */
  onError?: (error: ApiError, ...args: Args) => void
  /** How long schedule() waits for calls to stop coming (typing should not send a call per key). */
  debounceMs?: number
  /** Marks fallback request ids (see newRequestId). */
  label?: string
  now?: () => number
}

export interface LatestCall<Args extends unknown[]> {
  /** The call in flight, or null. */
  readonly running: Readonly<ShallowRef<Running | null>>
  readonly loading: ComputedRef<boolean>
  /** Calls now; a call still in flight is cancelled in main and its answer dropped. Settles when this call does. */
  run: (...args: Args) => Promise<void>
  /** Runs `task` (which usually calls run()) once schedule() stops being called for `debounceMs`. */
  schedule: (task: () => void) => void
  /** Forgets a scheduled task still waiting. */
  unschedule: () => void
  /** Asks main to stop the call in flight; it stays the latest, so its own `cancelled` error reaches onError. */
  cancel: () => Promise<ApiError | null>
  /** Lets go of the call in flight at once (its answer is dropped) and asks main to stop it, without waiting. */
  abandon: () => void
  /** Lets go of the call in flight (its answer is dropped) but leaves it running in main. */
  forget: () => void
}

/**
 * "Only the newest answer counts" for a bridge call that takes a request id: each call gets a
 * fresh id, a new call cancels the one still out (`requests:cancel`) and drops its answer, and
 * every failure is normalised to an ApiError. A scheduled task and a call still out are stopped
 * when the component (or store) that made it goes away.
 */
export function useLatestCall<Args extends unknown[], T>(
  call: (requestId: string, ...args: Args) => Promise<T>,
  options: LatestCallOptions<Args, T> = {},
): LatestCall<Args> {
  const running = shallowRef<Running | null>(null)
  const loading = computed(() => running.value !== null)
  const now = options.now ?? Date.now
  const scheduled = debounce((task: () => void) => task(), options.debounceMs ?? 0)

  function abandon(): void {
    const previous = running.value
    if (!previous) return
    running.value = null
    // Not awaited: the next call need not wait for it, and if main cannot cancel, the answer is dropped anyway.
    api()
      .requests.cancel({ requestId: previous.requestId })
      .catch(() => undefined)
  }

  async function run(...args: Args): Promise<void> {
    abandon()
    const mine: Running = { requestId: newRequestId(options.label), startedAt: now() }
    running.value = mine
    try {
      const value = await call(mine.requestId, ...args)
      if (running.value === mine) options.onValue?.(value, ...args)
    } catch (error) {
      if (running.value === mine) options.onError?.(toApiError(error), ...args)
    } finally {
      if (running.value === mine) running.value = null
    }
  }

  async function cancel(): Promise<ApiError | null> {
    const current = running.value
    if (!current) return null
    try {
      await unwrap(api().requests.cancel({ requestId: current.requestId }))
      return null
    } catch (error) {
      return toApiError(error)
    }
  }

  if (getCurrentScope()) {
    onScopeDispose(() => {
      scheduled.cancel()
      abandon()
    })
  }

  return {
    running,
    loading,
    run,
    schedule: (task) => scheduled(task),
    unschedule: () => scheduled.cancel(),
    cancel,
    abandon,
    forget: () => {
      running.value = null
    },
  }
}
