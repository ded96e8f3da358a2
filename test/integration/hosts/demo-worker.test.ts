import { promises as fs } from 'node:fs'
import path from 'node:path'
import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_PROFILE_ID } from '@contract'
import { startWebHost, type WebHost } from '../../../main/hosts/web/server'
import { startSandboxInWorker } from '../../../main/sandbox/in-worker'
import { DEMO_REPORT_TARGET } from '../../../main/services/connection/demo'
import { createMemoryKeychain } from '../../support/memory-keychain'
import { SOURCE_SANDBOX_WORKER } from '../../support/sandbox-worker'
import { temporaryFolder } from '../../support/services'

/**
 * The demo workspace as the web host (and the app) runs it: the embedded sandbox, with
 * credentials of its own for this run, in a worker thread so that its work never holds up
 * main's event loop.
 */
let host: WebHost
beforeAll(async () => {
  const rendererDir = await temporaryFolder('adops-renderer-')
  await fs.writeFile(path.join(rendererDir, 'index.html'), '<!doctype html><html><head><title>AdOps Desk</title></head></html>')
  // No loadSandbox: the host's own default, as `npm run preview:web` runs it.
  host = await startWebHost({
    port: 0,
    userDataDir: await temporaryFolder(),
    rendererDir,
    keychainServiceName: 'AdOps Desk demo worker test',
    openKeychain: async () => createMemoryKeychain(),
  })
})
afterAll(() => host.close())

const passwordGrant = async (authUrl: string, password: string): Promise<number> => {
  const response = await request(`${authUrl}/oauth2/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username: 'demo', password, scope: 'service_id=demo' }).toString(),
  })
  await response.body.dump()
  return response.statusCode
}

describe('the demo workspace of the web host', () => {
  it('signs in with the credentials of this run; the fixed demo password is refused', async () => {
    const demo = await host.services.workspace.activate(DEMO_PROFILE_ID)
    expect(new URL(demo.authUrl).hostname).toBe('127.0.0.1')
    const tested = await host.services.workspace.test(DEMO_PROFILE_ID, new AbortController().signal)
    expect(tested.workflow.ok).toBe(true)
    expect(tested.reporting.ok).toBe(true)
    expect(await passwordGrant(demo.authUrl, 'demo')).toBe(401)
  })

  it("computes a heavy report off main's event loop: main keeps turning while the demo works", async () => {
    await host.services.workspace.activate(DEMO_PROFILE_ID)
    const connection = await host.services.workspace.connection(DEMO_PROFILE_ID)
    const query = { ...DEMO_REPORT_TARGET, chart_lines: ['__total__'], data_field: 'impressions', end_date: 'yesterday' }
    // Signed in first, so what follows is one request for a year of days split by every publisher.
    await connection.reporting.timeSeries({ ...query, granularity: 'day', split_by: [], start_date: '-2d' })

    const order: string[] = []
    const heavy = connection.reporting.timeSeries({ ...query, granularity: 'day', split_by: ['publisher'], start_date: '-365d' }).then((result) => {
      order.push('the demo answered')
      return result
    })
    // In main's own thread the sandbox would hold the loop for the whole computation, and these
    // turns would come after its answer; in a worker they run at once.
    await new Promise<void>((resolve) => {
      let turns = 0
      const turn = (): void => {
        turns += 1
        if (turns < 50) {
          setImmediate(turn)
          return
        }
        order.push('main turned 50 times')
        resolve()
      }
      setImmediate(turn)
    })
    const result = await heavy
    expect(order).toEqual(['main turned 50 times', 'the demo answered'])
    expect(result.rows.length).toBeGreaterThan(300)
  })
})

describe('the sandbox worker', () => {
  it("starts embedded, answers with the run's token, and stops serving when closed", async () => {
    const sandbox = await startSandboxInWorker(SOURCE_SANDBOX_WORKER, { port: 0 })
    expect(sandbox.info.password).not.toBe('demo')
    expect(sandbox.info.permanent_token).not.toBe('demo-permanent-token')
    const answered = await request(`${sandbox.info.base_url}/publishers/1/`, { headers: { authorization: `Bearer ${sandbox.info.permanent_token}` } })
    expect(answered.statusCode).toBe(200)
    await answered.body.dump()
    // Embedded: no control routes.
    const controls = await request(`http://127.0.0.1:${sandbox.port}/__sandbox/faults`)
    expect(controls.statusCode).toBe(404)
    await controls.body.dump()
    await sandbox.close()
    await sandbox.close() // twice is harmless
    await expect(request(`${sandbox.info.base_url}/publishers/1/`)).rejects.toThrow(/ECONNREFUSED/)
  })

  it("reports a start that fails with the sandbox's sentence", async () => {
    await expect(startSandboxInWorker(SOURCE_SANDBOX_WORKER, { port: 0, host: '0.0.0.0' })).rejects.toThrow(/127\.0\.0\.1 or localhost only/)
  })
})
