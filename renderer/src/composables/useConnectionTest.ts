import { ref } from 'vue'
import type { ApiCheck } from '@contract'
import { api, errorMessage, unwrap } from '../api/bridge'
import { formatTime } from '../../../common/date-format'

export interface ConnectionTestResult {
  workflow: ApiCheck
  reporting: ApiCheck
}

let counter = 0

/** Runs "Test connection" for a profile and lets the user cancel it while it waits. */
export function useConnectionTest() {
  const running = ref(false)
  const result = ref<ConnectionTestResult | null>(null)
  const failure = ref<string | null>(null)
  let requestId: string | null = null

  async function run(profileId: string): Promise<void> {
    counter += 1
    requestId = `connection-test-${counter}`
    running.value = true
    result.value = null
    failure.value = null
    try {
      result.value = await unwrap(api().profiles.test({ id: profileId, requestId }))
    } catch (error) {
      failure.value = errorMessage(error)
    } finally {
      running.value = false
      requestId = null
    }
  }

  async function cancel(): Promise<void> {
    if (requestId !== null) await api().requests.cancel({ requestId })
  }

  return { running, result, failure, run, cancel }
}

export function describeCheck(check: ApiCheck): string {
  if (check.ok === true) {
    const expiry = check.tokenExpiresAt ? ` · signed in until ${formatTime(check.tokenExpiresAt)}` : ' · permanent token'
    return `Answered in ${check.latencyMs} ms${expiry}`
  }
  if (check.ok === false) return check.error.message
  return check.skipped
}
