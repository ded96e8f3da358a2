import type { Page } from '@playwright/test'
import type { Api } from '@contract'
import type { SandboxInfo } from '../../main/sandbox'
import path from 'node:path'
import { repositoryRoot, spawnChild } from '../support/child-process'
import { expect, test as base } from './fixtures'

/** Extends the web-host fixture with a sandbox backend of its own, started as a child process. */

/** What the sandbox prints on start: the same shape startSandbox() returns. */
export type { SandboxInfo }

export interface SandboxProcess {
  info: SandboxInfo
  /** A direct call to the Workflow API, behind the app's back (as another user would). */
  request(method: 'GET' | 'PUT' | 'POST' | 'DELETE', pathname: string, body?: unknown): Promise<{ status: number; body: unknown }>
  /** Sets the sandbox's fault controls (latency, rate limits, dropped exports); fails the test if it refuses them. */
  setFaults(faults: Record<string, unknown>): Promise<void>
  /** How many requests are waiting out a latency set with setFaults: the slowed request has arrived. */
  delayedRequests(): Promise<number>
  stop(): Promise<void>
}

export const test = base.extend<{ sandboxScale: 'small' | 'large'; sandbox: SandboxProcess }>({
  sandboxScale: ['small', { option: true }],
  sandbox: async ({ sandboxScale, host }, use) => {
    // The built demo backend command line (out/web/sandbox.js, from main/sandbox/cli.ts).
    const child = spawnChild(process.execPath, [path.join(repositoryRoot, 'out', 'web', 'sandbox.js'), '--port', '0', '--scale', sandboxScale])
    const info = await child.json<SandboxInfo>()
    // The sandbox's passwords and permanent token: the host's end-of-test log scan looks for them too.
    host.noteSecrets(info.password, info.viewer_password, info.permanent_token)
    const sandbox: SandboxProcess = {
      info,
      async request(method, pathname, body) {
        const response = await fetch(`${info.base_url}${pathname}`, {
          method,
          headers: {
            authorization: `Bearer ${info.permanent_token}`,
            accept: 'application/json',
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        })
        const text = await response.text()
        return { status: response.status, body: text === '' ? null : (JSON.parse(text) as unknown) }
      },
      async setFaults(faults) {
        const origin = new URL(info.base_url).origin
        const response = await fetch(`${origin}/__sandbox/faults`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(faults),
        })
        expect(response.status).toBe(200)
      },
      async delayedRequests() {
        const response = await fetch(`${new URL(info.base_url).origin}/__sandbox/faults`)
        return ((await response.json()) as { delayed_requests: number }).delayed_requests
      },
      async stop() {
        await child.stop()
      },
    }
    await use(sandbox)
    await child.stop()
  },
})

export { expect }

interface Connection {
  /** The connection's name, as the user would type it. */
  name: string
  /** Signs in as the read-only user. */
  viewer?: boolean
  /** Something in front of the Reporting API (a test's proxy) instead of the sandbox itself. */
  reportUrl?: string
  /** The demo report (demo/supply) as the connection's default, so Reports opens on it. */
  demoReport?: boolean
}

/** Creates a connection to the sandbox through the bridge, makes it active and reloads the page on it; answers its id. */
export async function connectSandbox(page: Page, hostUrl: string, sandbox: SandboxProcess, connection: Connection): Promise<string> {
  await page.goto(hostUrl)
  const profileId = await page.evaluate(
    async ({ info, connection }) => {
      const api = (window as unknown as { api: Api }).api
      const created = await api.profiles.create({
        name: connection.name,
        baseUrl: info.base_url,
        authUrl: info.auth_url,
        reportUrl: connection.reportUrl ?? info.report_url,
        serviceId: info.service_id,
        ...(connection.demoReport ? { defaultProject: 'demo', defaultSlicer: 'supply' } : {}),
        auth: {
          method: 'password',
          username: connection.viewer ? info.viewer_username : info.username,
          password: connection.viewer ? info.viewer_password : info.password,
        },
      })
      if (!created.ok) throw new Error(created.error.message)
      const activated = await api.workspace.activate({ profileId: created.value.id })
      if (!activated.ok) throw new Error(activated.error.message)
      return created.value.id
    },
    { info: sandbox.info, connection },
  )
  await page.reload()
  return profileId
}

/**
 * Creates a connection to the sandbox through the bridge, makes it active and opens the
 * entities view on `kind`. `viewer` signs in as the read-only user.
 */
export async function openEntities(page: Page, hostUrl: string, sandbox: SandboxProcess, options: { viewer?: boolean; kind?: string } = {}): Promise<string> {
  const profileId = await connectSandbox(page, hostUrl, sandbox, { name: options.viewer ? 'Sandbox (viewer)' : 'Sandbox', viewer: options.viewer === true })
  await page.getByTestId('rail').getByText('Entities', { exact: true }).click()
  await expect(page.getByTestId('entities-view')).toBeVisible()
  if (options.kind) await chooseKind(page, options.kind)
  return profileId
}

/** A connection to the sandbox with the demo report as its default, made active, on Reports with the report's info loaded. */
export async function openSandboxReports(page: Page, hostUrl: string, sandbox: SandboxProcess, connection: Omit<Connection, 'demoReport'>): Promise<void> {
  await connectSandbox(page, hostUrl, sandbox, { ...connection, demoReport: true })
  await page.getByTestId('rail').getByText('Reports', { exact: true }).click()
  await expect(page.getByTestId('builder')).toBeVisible()
  await expect(page.getByTestId('info-as-of')).toBeVisible()
}

export async function chooseKind(page: Page, label: string): Promise<void> {
  await page.getByTestId('kind-picker').getByText(label, { exact: true }).click()
}

export function rowById(page: Page, id: number | string) {
  return page.locator(`[data-test="entity-row"][data-id="${String(id)}"]`)
}

/** Waits until the list shows `count` rows in total (no search or filter). */
export async function expectRowCount(page: Page, text: string | RegExp): Promise<void> {
  await expect(page.getByTestId('row-count')).toHaveText(text)
}
