import { createServer } from 'node:http'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { ZodError } from 'zod'
import type { TokenService } from './auth'
import { describeFaultsError } from './faults'
import type { FaultState } from './faults'
import { delay, readBody, sendJson } from './http'
import { handleReporting } from './reporting/handler'
import type { ReportingDependencies } from './reporting/handler'
import { handleWorkflow } from './workflow/handler'
import type { WorkflowDependencies } from './workflow/handler'

export interface ServerDependencies {
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

  if (path.startsWith('/__sandbox/')) {
    handleControl(request, response, path, body.bytes, dependencies)
    return
  }
  await delay(dependencies.faults.current.latency_ms)

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

function handleControl(request: IncomingMessage, response: ServerResponse, path: string, body: Buffer, dependencies: ServerDependencies): void {
  if (path === '/__sandbox/faults' && request.method === 'GET') {
    sendJson(response, 200, dependencies.faults.current)
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
