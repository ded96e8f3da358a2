import { defineStore } from 'pinia'
import { ref } from 'vue'
import { api, type ApiError } from '../api/bridge'

/** A profile whose platform could not be reached: since when, and what the failure said. */
export interface Offline {
  since: string
  reason: string
}

/** How often the rate-limit countdown ticks while it runs. */
const TICK_MS = 250

/**
 * Whether each connection's platform can be reached now, for the offline and rate-limit
 * banners: a network failure marks the profile offline until a call succeeds again; a 429
 * (seen in a reply or announced by main while it waits) starts a countdown.
 */
export const useConnectivityStore = defineStore('connectivity', () => {
  const offline = ref<Record<string, Offline>>({})
  /** The rate limit being waited out; `profileId` null: every profile waits. */
  const throttle = ref<{ profileId: string | null; until: number } | null>(null)
  const now = ref(Date.now())
  let listening = false
  let ticker: ReturnType<typeof setInterval> | null = null

  function startTicker(): void {
    now.value = Date.now()
    if (ticker !== null) return
    ticker = setInterval(() => {
      now.value = Date.now()
      if (throttle.value && throttle.value.until <= now.value) {
        throttle.value = null
        if (ticker !== null) clearInterval(ticker)
        ticker = null
      }
    }, TICK_MS)
  }

  function throttled(profileId: string | null, seconds: number): void {
    throttle.value = { profileId, until: Date.now() + seconds * 1000 }
    startTicker()
  }

  /** Follows main's "waiting for the rate limit" events; once is enough. */
  function listen(): void {
    if (listening) return
    listening = true
    api().onThrottled((event) => throttled(event.profileId, event.waitSeconds))
  }

  /** Seconds left to wait for the platform (rate limit) for this profile, or 0. */
  function throttledFor(profileId: string): number {
    const current = throttle.value
    if (!current || (current.profileId !== null && current.profileId !== profileId)) return 0
    return Math.max(0, Math.ceil((current.until - now.value) / 1000))
  }

  /** Records what a failed call says about the platform: unreachable, or asking us to wait. */
  function note(profileId: string, error: ApiError): void {
    if (error.code === 'network') {
      offline.value = { ...offline.value, [profileId]: { since: new Date().toISOString(), reason: error.message } }
    } else if (error.code === 'throttled') {
      const seconds = error.details?.retryAfterSeconds ?? 0
      if (seconds > 0) throttled(profileId, seconds)
    }
  }

  /** A call went through: the platform is reachable again. */
  function online(profileId: string): void {
    if (!offline.value[profileId]) return
    const next = { ...offline.value }
    delete next[profileId]
    offline.value = next
  }

  return { offline, throttle, now, listen, throttledFor, note, online }
})
