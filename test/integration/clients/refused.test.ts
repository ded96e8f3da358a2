import { createServer } from 'node:net'
import { describe, expect, it } from 'vitest'
import { createConnection } from '../../../main/services/connection/connection'
import { createHttpClient } from '../../../main/services/http/client'
import type { RetryEvent } from '../../../main/services/http/retry'
import { demoCredentials, recordWire } from './support/sandbox'
import { caught } from './support/outcomes'

/** A port that was just listened on and closed again: the OS refuses a connection to it at once. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('no port')
  await new Promise<void>((resolve, reject) => server.close((error) => (error === undefined ? resolve() : reject(error))))
  return address.port
}

function settingsAt(port: number) {
  const origin = `http://127.0.0.1:${port}`
  return { baseUrl: `${origin}/wf`, authUrl: `${origin}/auth`, reportUrl: `${origin}/rep`, serviceId: 'demo', reportServiceId: null }
}

/**
 * A refused connection is the other computer saying nothing listens on that port: waiting out
 * the retry budget (4 back-offs, some 7 s) changes nothing. The client's default policy is used
 * here, and its retry notices and the requests undici puts on the wire are counted.
 */
describe('a refused connection', () => {
  it('fails on the first attempt, no back-off waited, naming the host and port', async () => {
    const port = await closedPort()
    const retries: RetryEvent[] = []
    const http = createHttpClient({ random: () => 0.5, onRetry: (event) => retries.push(event) })
    const wire = recordWire()
    try {
      // A permanent token: no sign-in, so the first request is the one under test.
      const { workflow, reporting } = createConnection({ settings: settingsAt(port), credentials: async () => ({ method: 'token', token: 'kept' }), http })
      const error = await caught(workflow.get('publishers', 1))
      expect(error.code).toBe('network')
      expect(error.details?.errorCode).toBe('ECONNREFUSED')
      expect(error.message).toMatch(new RegExp(`^Nothing answers at 127\\.0\\.0\\.1:${port}\\.`))
      expect(retries).toEqual([])
      expect(wire.count('GET', '/wf/publishers/1/')).toBe(1)

      const reportError = await caught(reporting.info({ project_name: 'demo', slicer_name: 'supply' }))
      expect(reportError.message).toMatch(/^Nothing answers at/)
      expect(retries).toEqual([])
    } finally {
      wire.stop()
      await http.close()
    }
  })

  it('fails the connection test at once, each half with the sentence', async () => {
    const port = await closedPort()
    const retries: RetryEvent[] = []
    const http = createHttpClient({ random: () => 0.5, onRetry: (event) => retries.push(event) })
    const wire = recordWire()
    try {
      const connection = createConnection({ settings: settingsAt(port), credentials: async () => demoCredentials, http })
      const result = await connection.testConnection({ report: { project_name: 'demo', slicer_name: 'supply' } })
      for (const check of [result.workflow, result.reporting]) {
        expect(check).toMatchObject({ ok: false, error: { code: 'network', message: expect.stringMatching(/^Nothing answers at 127\.0\.0\.1:\d+\. /) } })
      }
      expect(retries).toEqual([])
      // One sign-in (both APIs share the service id here), not repeated.
      expect(wire.count('POST', '/auth/oauth2/token/')).toBe(1)
    } finally {
      wire.stop()
      await http.close()
    }
  })
})
