import { AppError } from './errors'

/**
 * Long calls the renderer may cancel: each runs with an AbortSignal registered under the
 * id the renderer chose, and `requests:cancel` aborts it. Calls without an id still get a
 * signal, so services have one code path.
 */
export interface CancellationRegistry {
  run<T>(requestId: string | undefined, work: (signal: AbortSignal) => Promise<T>): Promise<T>
  cancel(requestId: string): void
  /** Aborts everything in flight (the app is quitting). */
  cancelAll(): void
}

export function createCancellationRegistry(): CancellationRegistry {
  const running = new Map<string, AbortController>()
  const anonymous = new Set<AbortController>()
  return {
    async run(requestId, work) {
      const controller = new AbortController()
      if (requestId !== undefined) {
        if (running.has(requestId)) throw new AppError('bad_input', `A request with id "${requestId}" is already running.`)
        running.set(requestId, controller)
      } else {
        anonymous.add(controller)
      }
      try {
        return await work(controller.signal)
      } finally {
        if (requestId !== undefined) running.delete(requestId)
        anonymous.delete(controller)
      }
    },
    cancel(requestId) {
      running.get(requestId)?.abort(new AppError('cancelled', 'Cancelled.'))
    },
    cancelAll() {
      for (const controller of [...running.values(), ...anonymous]) controller.abort(new AppError('cancelled', 'Cancelled.'))
    },
  }
}
