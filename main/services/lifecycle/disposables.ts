/**
 * Releasing what main holds, in one place (VS Code's DisposableStore, trimmed to what main
 * needs). Whatever holds something (a socket pool, a log file, a subscription) is added to a
 * store as it is built; disposing the store releases everything in the reverse order of
 * adding, so a thing is always released before what it was built on, and the order of
 * teardown is the order of construction read backwards: it needs no comments to keep it right.
 */

/** Something that holds a resource until it is disposed. */
export interface Disposable {
  dispose(): void | Promise<void>
}

/** A disposable that runs `release` (an unsubscribe, a `close()`) once disposed. */
export function toDisposable(release: () => void | Promise<void>): Disposable {
  return { dispose: release }
}

export class DisposableStore implements Disposable {
  private readonly held: Disposable[] = []
  private disposed = false
  private released: Promise<void> | null = null

  /** True once dispose() was called (even while it is still releasing). */
  get isDisposed(): boolean {
    return this.disposed
  }

  /**
   * Holds `disposable` until the store is disposed, and returns it, so a line can build and
   * register at once. A disposed store takes nothing more: adding then is a mistake in the
   * caller, who still owns what it passed, so it throws instead of leaking it silently.
   */
  add<T extends Disposable>(disposable: T): T {
    if (this.disposed) throw new Error('This store was already disposed: what was added to it was not taken, so its owner must dispose it.')
    this.held.push(disposable)
    return disposable
  }

  /**
   * Releases everything, last added first, one after another (an async release is awaited
   * before the next starts). One that fails does not stop the rest: every error is collected
   * and thrown at the end (the error itself when one failed, an AggregateError when several).
   * Calling it again returns the same promise and releases nothing twice.
   */
  dispose(): Promise<void> {
    if (!this.disposed) {
      // Set first, so a release that tries to add to the store is refused rather than lost.
      this.disposed = true
      this.released = this.release()
    }
    return this.released ?? Promise.resolve()
  }

  private async release(): Promise<void> {
    const errors: unknown[] = []
    for (const disposable of this.held.splice(0).reverse()) {
      try {
        await disposable.dispose()
      } catch (error) {
        errors.push(error)
      }
    }
    if (errors.length === 1) throw errors[0]
    if (errors.length > 1) throw new AggregateError(errors, `${errors.length} resources failed to release.`)
  }
}
