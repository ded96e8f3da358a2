// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createPinia, setActivePinia } from 'pinia'
import { ApiError } from '../../../../renderer/src/api/bridge'
import { useConnectivityStore } from '../../../../renderer/src/stores/connectivity'

type ThrottledListener = (event: { profileId: string | null; waitSeconds: number }) => void

/** A stand-in window.api that lets the test announce a rate limit the way main does. */
function fakeApi() {
  const listeners: ThrottledListener[] = []
  const api = {
    onThrottled: (listener: ThrottledListener) => {
      listeners.push(listener)
      return () => undefined
    },
  }
  Object.defineProperty(window, 'api', { value: api, configurable: true })
  return { announce: (event: Parameters<ThrottledListener>[0]) => listeners.forEach((listener) => listener(event)), listeners }
}

describe('connectivity store', () => {
  beforeEach(() => {
    setActivePinia(createPinia())
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('counts a rate limit down per profile, or for all when main names none, and ends it', () => {
    const { announce, listeners } = fakeApi()
    const connectivity = useConnectivityStore()
    connectivity.listen()
    connectivity.listen()
    expect(listeners).toHaveLength(1)

    announce({ profileId: 'p1', waitSeconds: 3 })
    expect(connectivity.throttledFor('p1')).toBe(3)
    expect(connectivity.throttledFor('p2')).toBe(0)
    vi.advanceTimersByTime(1_000)
    expect(connectivity.throttledFor('p1')).toBe(2)
    vi.advanceTimersByTime(2_500)
    expect(connectivity.throttledFor('p1')).toBe(0)
    expect(connectivity.throttle).toBeNull()

    announce({ profileId: null, waitSeconds: 5 })
    expect(connectivity.throttledFor('p2')).toBe(5)
  })

  it('marks a profile offline on a network failure until a call goes through', () => {
    fakeApi()
    const connectivity = useConnectivityStore()
    connectivity.note('p1', new ApiError({ code: 'validation', message: 'Bad field.' }))
    expect(connectivity.offline).toEqual({})
    connectivity.note('p1', new ApiError({ code: 'network', message: 'The platform is unreachable.' }))
    expect(connectivity.offline['p1']?.reason).toBe('The platform is unreachable.')
    expect(connectivity.offline['p2']).toBeUndefined()
    connectivity.online('p1')
    expect(connectivity.offline['p1']).toBeUndefined()
  })
})
