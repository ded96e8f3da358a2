import { describe, expect, it } from 'vitest'
import { DisposableStore, toDisposable } from '../../../main/services/lifecycle/disposables'

/** A store holding disposables that write their name to `released` when disposed. */
function recording(): { store: DisposableStore; released: string[]; named: (name: string) => { dispose(): void } } {
  const store = new DisposableStore()
  const released: string[] = []
  return { store, released, named: (name) => toDisposable(() => void released.push(name)) }
}

describe('DisposableStore', () => {
  it('returns what is added, so a line can build and register at once', () => {
    const { store, named } = recording()
    const resource = named('socket')
    expect(store.add(resource)).toBe(resource)
  })

  it('disposes in the reverse order of adding', async () => {
    const { store, released, named } = recording()
    for (const name of ['log', 'http', 'workspace', 'jobs']) store.add(named(name))
    await store.dispose()
    expect(released).toEqual(['jobs', 'workspace', 'http', 'log'])
  })

  it('waits for an async release before starting the next', async () => {
    const { store, released, named } = recording()
    store.add(named('first added'))
    let finish = (): void => undefined
    store.add(toDisposable(() => new Promise<void>((resolve) => (finish = resolve)).then(() => void released.push('slow'))))
    const disposing = store.dispose()
    await Promise.resolve()
    expect(released).toEqual([])
    finish()
    await disposing
    expect(released).toEqual(['slow', 'first added'])
  })

  it('is idempotent: a second dispose releases nothing twice and settles with the first', async () => {
    const { store, released, named } = recording()
    store.add(named('once'))
    const first = store.dispose()
    const second = store.dispose()
    await Promise.all([first, second])
    await store.dispose()
    expect(released).toEqual(['once'])
  })

  it('says whether it was disposed, from the moment dispose is called', () => {
    const { store } = recording()
    expect(store.isDisposed).toBe(false)
    void store.dispose()
    expect(store.isDisposed).toBe(true)
  })

  it('still releases the rest when one fails, then throws that error', async () => {
    const { store, released, named } = recording()
    const failure = new Error('the socket would not close')
    store.add(named('before'))
    store.add(
      toDisposable(() => {
        throw failure
      }),
    )
    store.add(named('after'))
    await expect(store.dispose()).rejects.toBe(failure)
    expect(released).toEqual(['after', 'before'])
  })

  it('collects several failures, sync and async, into one AggregateError', async () => {
    const { store, released, named } = recording()
    const sync = new Error('sync')
    const async = new Error('async')
    store.add(
      toDisposable(() => {
        throw sync
      }),
    )
    store.add(named('between'))
    store.add(toDisposable(() => Promise.reject(async)))
    const error: unknown = await store.dispose().catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(AggregateError)
    expect((error as AggregateError).errors).toEqual([async, sync])
    expect(released).toEqual(['between'])
  })

  it('refuses to take more once disposed, even from inside a release, leaving it to its owner', async () => {
    const { store, released, named } = recording()
    let refused: unknown = null
    store.add(
      toDisposable(() => {
        try {
          store.add(named('late, from a release'))
        } catch (error) {
          refused = error
        }
      }),
    )
    await store.dispose()
    expect(refused).toBeInstanceOf(Error)
    expect(() => store.add(named('late'))).toThrow(/already disposed/)
    expect(released).toEqual([])
  })
})
