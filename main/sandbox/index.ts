import type { AddressInfo } from 'node:net'
import { DEMO_CREDENTIALS, randomCredentials, SERVICE_ID, TokenService } from './auth'
import { generateEntities } from './data/entities'
import { generateFacts } from './data/facts'
import { FaultState } from './faults'
import type { SandboxFaults } from './faults'
import { KeyModel } from './reporting/keys'
import type { EntityKind } from './reporting/keys'
import { seedMarkers } from './reporting/markers'
import { createSandboxServer } from './server'
import type { RequestPolicy } from './server'
import { WorkflowStore } from './workflow/store'

/**
 * The demo backend: a local, faithful implementation of the token service, the Workflow API v1
 * and the Reporting API v2 over deterministic synthetic data. Plain Node; never imports electron.
 */

export type { SandboxFaults } from './faults'
export type SandboxScale = 'small' | 'large'

export interface SandboxOptions {
  /** 0 = a free port (default). */
  port?: number
  /** Default 127.0.0.1. */
  host?: string
  /** Default 1. */
  seed?: number
  /** Default 'small'. */
  scale?: SandboxScale
  /** Default 3600. */
  tokenTtlSeconds?: number
  /** The clock (default real time): "today", relative dates, token expiry, throttle windows. */
  now?: () => Date
  /**
   * The app's own demo backend (default false: the standalone CLI and tests). Other programs on
   * the machine and web pages in a browser can reach loopback too, so it uses a random password
   * and permanent token per run (in `info`), serves no /__sandbox/* controls, accepts only JSON
   * request bodies, and answers only to Host 127.0.0.1:<port> or localhost:<port>. It must
   * listen on 127.0.0.1 or localhost.
   */
  embedded?: boolean
}

/** Where the sandbox serves and who may sign in (fixed demo credentials, or random ones when embedded). */
export interface SandboxInfo {
  base_url: string
  auth_url: string
  report_url: string
  service_id: string
  username: string
  password: string
  permanent_token: string
  viewer_username: string
  viewer_password: string
}

export interface Sandbox {
  info: SandboxInfo
  port: number
  setFaults(faults: Partial<SandboxFaults>): void
  reset(): void
  close(): Promise<void>
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const now = options.now ?? (() => new Date())
  const seed = options.seed ?? 1
  const scale = options.scale ?? 'small'
  const host = options.host ?? '127.0.0.1'
  const tokenTtlSeconds = options.tokenTtlSeconds ?? 3600
  const embedded = options.embedded ?? false
  if (embedded && host !== '127.0.0.1' && host !== 'localhost') {
    throw new Error(`The embedded sandbox listens on 127.0.0.1 or localhost only, not '${host}'.`)
  }
  const credentials = embedded ? randomCredentials() : DEMO_CREDENTIALS

  const entities = generateEntities(seed, scale)
  const todayDay = Math.floor(now().getTime() / 86_400_000)
  const facts = generateFacts(seed, scale, todayDay, entities)
  let store = new WorkflowStore(entities)
  const faults = new FaultState(
    { latency_ms: 0, fail_rate: 0, throttle_per_s: 0, drop_export_after_bytes: 0, token_ttl_s: tokenTtlSeconds, report_status: null },
    now,
  )
  const tokens = new TokenService(now, () => faults.current.token_ttl_s, credentials)
  const liveName = (kind: EntityKind, id: number): string | undefined => store.store(kind).get(id)?.name
  const reportContext = {
    facts,
    entities,
    keys: new KeyModel(facts, entities, liveName),
    now,
    markers: seedMarkers(facts.firstDay),
    reportUrl: '',
  }
  const workflow = { store: () => store, tokens, faults, origin: '' }
  // The allowed hosts are filled in once the port is known; nothing is served before that.
  const policy: RequestPolicy = embedded
    ? { controlRoutes: false, jsonBodiesOnly: true, allowedHosts: new Set() }
    : { controlRoutes: true, jsonBodiesOnly: false, allowedHosts: null }
  const server = createSandboxServer({
    policy,
    tokens,
    faults,
    workflow,
    reporting: { tokens, faults, context: reportContext },
    resetData: () => {
      store = new WorkflowStore(entities)
    },
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const port = (server.address() as AddressInfo).port
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host
  const origin = `http://${urlHost}:${port}`
  workflow.origin = origin
  reportContext.reportUrl = `${origin}/report`
  if (embedded) policy.allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`])

  const info: SandboxInfo = {
    base_url: `${origin}/workflow/v1`,
    auth_url: `${origin}/auth`,
    report_url: `${origin}/report`,
    service_id: SERVICE_ID,
    username: 'demo',
    password: credentials.password,
    permanent_token: credentials.permanentToken,
    viewer_username: 'viewer',
    viewer_password: credentials.viewerPassword,
  }

  return {
    info,
    port,
    setFaults: (partial) => faults.set(partial),
    reset: () => {
      store = new WorkflowStore(entities)
      faults.reset()
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        // Keep-alive connections would hold close() open until they time out.
        server.closeAllConnections()
      }),
  }
}
