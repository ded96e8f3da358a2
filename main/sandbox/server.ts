import { createServer } from 'node:http'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { ZodError } from 'zod'
import type { TokenService } from './auth'
import { describeFaultsError } from './faults'
import type { FaultState } from './faults'
import { delay, mediaTypeOf, readBody, sendJson } from './http'
import { handleReporting } from './reporting/handler'
import type { ReportingDependencies } from './reporting/handler'
import { handleWorkflow } from './workflow/handler'
import type { WorkflowDependencies } from './workflow/handler'

/**
 * What the server lets in. The standalone sandbox lets in everything; the app's embedded demo
 * shuts out other local programs and web pages (which can reach loopback from a browser).
 */
export interface RequestPolicy {
  /** Serve the /__sandbox/* controls (faults, reset). */
  controlRoutes: boolean
  /**
   * Refuse request bodies that are not application/json (415). A web page can send text/plain
   * or form bodies to any address without asking first; JSON needs a CORS preflight, which we
   * never grant. The token endpoint keeps its OAuth2 form body: it needs the password, which a
   * page cannot know.
   */
  jsonBodiesOnly: boolean
  /**
   * Host headers let in (`name:port`, lower case); null lets in any. Checking them defeats DNS
   * rebinding, where a page's own host name is pointed at 127.0.0.1.
   */
  allowedHosts: ReadonlySet<string> | null
}

export interface ServerDependencies {
  /** Read on every request, so the allowed hosts can be filled in once the port is known. */
  policy: RequestPolicy
  tokens: TokenService
  faults: FaultState
  workflow: WorkflowDependencies
  reporting: ReportingDependencies
  /** Restores the initial data (the faults are reset by the router). */
  resetData: () => void
}

const WORKFLOW_PREFIX = '/workflow/v1'
const REPORT_PREFIX = '/report/API/v2/'
const TOKEN_PATHS = new Set(['/auth/oauth2/token/', '/auth/oauth2/token'])

/** The one HTTP server: token service, Workflow API, Reporting API and the /__sandbox controls. */
export function createSandboxServer(dependencies: ServerDependencies): Server {
  return createServer((request, response) => {
    route(request, response, dependencies).catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, { detail: `Sandbox error: ${error instanceof Error ? error.message : String(error)}` })
      else response.destroy()
    })
  })
}

async function route(request: IncomingMessage, response: ServerResponse, dependencies: ServerDependencies): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://sandbox.invalid')
  const path = url.pathname
  const body = await readBody(request)
  const { policy } = dependencies

  const host = (request.headers.host ?? '').toLowerCase()
  if (policy.allowedHosts !== null && !policy.allowedHosts.has(host)) {
    sendJson(response, 421, { detail: `This server does not answer for host '${host.slice(0, 100)}'.` })
    return
  }
  if (path.startsWith('/__sandbox/')) {
    if (policy.controlRoutes) handleControl(request, response, path, body.bytes, dependencies)
    else sendJson(response, 404, { detail: 'Not found.' })
    return
  }
  if (policy.jsonBodiesOnly && !TOKEN_PATHS.has(path) && carriesBody(request, body.bytes) && mediaTypeOf(request) !== 'application/json') {
    sendJson(response, 415, { detail: 'Request bodies must be JSON, sent with Content-Type: application/json.' })
    return
  }
  await dependencies.faults.delayRequest(delay)

  if (TOKEN_PATHS.has(path)) {
    dependencies.tokens.handleTokenRequest(request, response, body.bytes)
    return
  }
  if (path === WORKFLOW_PREFIX || path.startsWith(`${WORKFLOW_PREFIX}/`)) {
    handleWorkflow(request, response, path.slice(WORKFLOW_PREFIX.length), url.searchParams, body, dependencies.workflow)
    return
  }
  if (path.startsWith(REPORT_PREFIX)) {
    await handleReporting(request, response, path.slice(REPORT_PREFIX.length).replace(/\/$/, ''), body, dependencies.reporting)
    return
  }
  sendJson(response, 404, { detail: 'Not found.' })
}

/** Methods whose requests carry a body count even when it is empty: the type is what is judged. */
function carriesBody(request: IncomingMessage, bytes: Buffer): boolean {
  return bytes.length > 0 || request.method === 'POST' || request.method === 'PUT' || request.method === 'PATCH'
}

function handleControl(request: IncomingMessage, response: ServerResponse, path: string, body: Buffer, dependencies: ServerDependencies): void {
  if (path === '/__sandbox/faults' && request.method === 'GET') {
    sendJson(response, 200, { ...dependencies.faults.current, delayed_requests: dependencies.faults.delayedRequests })
    return
  }
  if (path !== '/__sandbox/faults' && path !== '/__sandbox/reset') {
    sendJson(response, 404, { detail: 'Not found.' })
    return
  }
  if (request.method !== 'POST') {
    sendJson(response, 405, { detail: `Method "${request.method ?? ''}" not allowed.` }, { Allow: path === '/__sandbox/faults' ? 'GET, POST' : 'POST' })
    return
  }
  if (path === '/__sandbox/reset') {
    dependencies.resetData()
    dependencies.faults.reset()
    sendJson(response, 200, { status: 'reset', faults: dependencies.faults.current })
    return
  }
  try {
    dependencies.faults.set(body.length === 0 ? {} : JSON.parse(body.toString('utf8')))
    sendJson(response, 200, dependencies.faults.current)
  } catch (error) {
    const message = error instanceof ZodError ? describeFaultsError(error) : 'The body must be a JSON object of faults.'
    sendJson(response, 400, { detail: message })
  }
}
