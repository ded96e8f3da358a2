import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandboxInWorker, type WorkerSandbox } from '../../../main/sandbox/in-worker'
import { createConnection } from '../../../main/services/connection/connection'
import { startDemoWorkspace } from '../../../main/services/connection/demo'
import { AppError } from '../../../main/services/errors'
import { SOURCE_SANDBOX_WORKER } from '../../support/sandbox-worker'
import { fastHttp, manualClock, startHarness, type Harness } from './support/sandbox'

let harness: Harness

beforeAll(async () => {
  harness = await startHarness()
})
afterAll(async () => {
  await harness.close()
})

const report = { project_name: 'demo', slicer_name: 'supply' }

describe('testConnection', () => {
  it('signs in and calls one cheap endpoint of each API', async () => {
    const clock = manualClock(Date.parse('2030-01-01T00:00:00Z'))
    const result = await harness.connect({ now: clock.now }).testConnection({ report })
    expect(result.workflow).toEqual({ ok: true, latencyMs: expect.any(Number), tokenExpiresAt: '2030-01-01T01:00:00.000Z' })
    expect(result.reporting).toEqual({ ok: true, latencyMs: expect.any(Number), tokenExpiresAt: '2030-01-01T01:00:00.000Z' })
  })

  it('skips the reporting half, saying why, when no report is named', async () => {
    const result = await harness.connect().testConnection()
    expect(result.workflow.ok).toBe(true)
    expect(result.reporting).toEqual({ ok: null, skipped: expect.stringMatching(/choose a project and a report/) })
  })

  it("reports each API's error without throwing", async () => {
    const result = await harness.connect({ credentials: async () => ({ method: 'password', username: 'demo', password: 'wrong' }) }).testConnection({ report })
    for (const check of [result.workflow, result.reporting]) {
      expect(check.ok).toBe(false)
      if (check.ok === false) {
        expect(check.error.code).toBe('auth')
        expect(check.error.message).toMatch(/^Sign-in rejected/)
      }
    }
  })

  it('an unknown report fails only the reporting half', async () => {
    const result = await harness.connect().testConnection({ report: { project_name: 'demo', slicer_name: 'nope' } })
    expect(result.workflow.ok).toBe(true)
    expect(result.reporting).toMatchObject({ ok: false, error: { code: 'forbidden' } })
  })

  it('a permanent token has no expiry to show', async () => {
    const result = await harness
      .connect({ credentials: async () => ({ method: 'token', token: harness.sandbox.info.permanent_token }) })
      .testConnection({ report })
    expect(result.workflow).toMatchObject({ ok: true, tokenExpiresAt: null })
  })

  it('signs in afresh each time: a password changed since the last test is caught', async () => {
    let password = 'demo'
    const connection = harness.connect({ credentials: async () => ({ method: 'password', username: 'demo', password }) })
    expect((await connection.testConnection()).workflow.ok).toBe(true)
    password = 'changed'
    expect((await connection.testConnection()).workflow).toMatchObject({ ok: false, error: { code: 'auth' } })
  })

  it('an unreachable platform is a network error', async () => {
    const http = fastHttp({ retry: { maxRetries: 0 } })
    try {
      const connection = createConnection({
        settings: {
          baseUrl: 'http://127.0.0.1:9/wf',
          authUrl: 'http://127.0.0.1:9/auth',
          reportUrl: 'http://127.0.0.1:9/rep',
          serviceId: 'demo',
          reportServiceId: null,
        },
        credentials: async () => ({ method: 'password', username: 'demo', password: 'demo' }),
        http,
      })
      const result = await connection.testConnection({ report })
      expect(result.workflow).toMatchObject({ ok: false, error: { code: 'network' } })
    } finally {
      await http.close()
    }
  })
})

describe('the demo workspace', () => {
  it('starts the embedded sandbox on 127.0.0.1 and both APIs test ok with the credentials it started with', async () => {
    // As the app starts it: embedded (credentials of its own for this run), in a worker thread.
    let started: WorkerSandbox | undefined
    const demo = await startDemoWorkspace({ startSandbox: async ({ port }) => (started = await startSandboxInWorker(SOURCE_SANDBOX_WORKER, { port })) })
    const http = fastHttp({ retry: { maxRetries: 0 } })
    try {
      expect(new URL(demo.settings.baseUrl).hostname).toBe('127.0.0.1')
      expect(demo.credentials).toEqual({ method: 'password', username: started?.info.username, password: started?.info.password })
      expect(demo.credentials).not.toMatchObject({ password: 'demo' })
      const connection = createConnection({ settings: demo.settings, credentials: async () => demo.credentials, http })
      const result = await connection.testConnection({ report: demo.reportTarget })
      expect(result.workflow.ok).toBe(true)
      expect(result.reporting.ok).toBe(true)

      await demo.stop()
      await demo.stop() // twice is harmless
      const error = await connection.workflow.get('publishers', 1).catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(AppError)
      expect((error as AppError).code).toBe('network')
    } finally {
      await http.close()
      await demo.stop()
    }
  })
})
