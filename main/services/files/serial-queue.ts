/**
 * Runs async work one piece at a time, in call order: two quick edits of the same file must
 * not race each other's rename. A failed piece rejects its own caller and does not block the
 * pieces after it.
 */
export type SerialQueue = <T>(work: () => Promise<T>) => Promise<T>

export function createSerialQueue(): SerialQueue {
  let tail: Promise<unknown> = Promise.resolve()
  return (work) => {
    const run = tail.then(work)
    tail = run.catch(() => undefined)
    return run
  }
}
