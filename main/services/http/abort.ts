import { cancelled } from './errors'

/**
 * Waits for a shared promise on behalf of one caller: that caller's abort rejects its wait
 * with `cancelled` without cancelling the shared work other callers still need.
 */
export function withSignal<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise
  if (signal.aborted) return Promise.reject(cancelled(null))
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(cancelled(null))
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      },
    )
  })
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) throw cancelled(null)
}
