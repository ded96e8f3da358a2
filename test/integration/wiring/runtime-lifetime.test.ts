import { describe, expect, it, vi } from 'vitest'
import { createRuntime } from '../../../main/runtime'
import type * as NoticesModule from '../../../main/services/notices'
import type * as ProfileStoreModule from '../../../main/services/profiles/profile-store'
import { createMemoryKeychain } from '../../support/memory-keychain'
import { temporaryFolder } from '../../support/services'

/** Every subscription made while the runtime is built, and how many of them were released again. */
const subscriptions = vi.hoisted(() => {
  const counts = new Map<string, { made: number; released: number }>()
  /** `subscribe` as before, but counted, with an unsubscribe that counts its release. */
  function counted<L, R>(name: string, subscribe: (listener: L) => R): (listener: L) => R {
    return (listener) => {
      const count = counts.get(name) ?? { made: 0, released: 0 }
      counts.set(name, count)
      count.made += 1
      const off = subscribe(listener)
      return (() => {
        count.released += 1
        return (off as () => unknown)()
      }) as R
    }
  }
  return { counts, counted }
})

vi.mock('../../../main/services/profiles/profile-store', async (importOriginal) => {
  const original = await importOriginal<typeof ProfileStoreModule>()
  return {
    ...original,
    createProfileStore: (...args: Parameters<typeof original.createProfileStore>) => {
      const store = original.createProfileStore(...args)
      return Object.assign(store, { onProfileRemoved: subscriptions.counted('onProfileRemoved', store.onProfileRemoved.bind(store)) })
    },
  }
})

vi.mock('../../../main/services/notices', async (importOriginal) => {
  const original = await importOriginal<typeof NoticesModule>()
  return {
    ...original,
    createNotices: (...args: Parameters<typeof original.createNotices>) => {
      const notices = original.createNotices(...args)
      return Object.assign(notices, { subscribe: subscriptions.counted('notices', notices.subscribe.bind(notices)) })
    },
  }
})

describe('the runtime’s lifetime', () => {
  it('releases on close every subscription made while it was built (connections removed, notices)', async () => {
    const runtime = await createRuntime({
      userDataDir: await temporaryFolder(),
      keychainServiceName: 'AdOps Desk lifetime test',
      environment: { version: '0.0.0-test', platform: 'test' },
      host: {
        openKeychain: async () => createMemoryKeychain(),
        loadSandbox: () => Promise.reject(new Error('no demo in this test')),
        sendEvent: () => undefined,
      },
    })
    // Mirrors, drafts, saved results and report info each follow a removed connection; notices go to the log and the page.
    expect(subscriptions.counts.get('onProfileRemoved')?.made).toBe(4)
    expect(subscriptions.counts.get('notices')?.made).toBe(2)
    await runtime.close()
    for (const [name, count] of subscriptions.counts) expect(count.released, name).toBe(count.made)
  })
})
