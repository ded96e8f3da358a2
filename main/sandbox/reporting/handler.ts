import type { IncomingMessage, ServerResponse } from 'node:http'
import type { TokenService } from '../auth'
import type { FaultState } from '../faults'
import { bearerToken } from '../http'
import type { ReadBody } from '../http'
import { audience } from './audience'
import type { ReportContext } from './context'
import { HTTP_CODE_OF_STATUS, ReportError } from './errors'
import type { ReportStatus } from './errors'
import { EXPORT_LIMITS, planExport } from './export'
import type { ExportLimits, ExportFile } from './export'
import { writeTextExport } from './export-csv'
import type { ByteSink } from './export-sink'
import { writeXlsxExport } from './export-xlsx'
import { info } from './info'
import { commonSchema, parseBody } from './request'
import { timeSeries } from './time-series'
import { toYaml } from './yaml'

export const PROJECT = 'demo'
export const SLICER = 'supply'
export const OPERATIONS = ['info', 'time_series', 'audience', 'export'] as const

export interface ReportingDependencies {
  tokens: TokenService
  faults: FaultState
  /** Everything of ReportContext except the user, which comes from the token. */
  context: Omit<ReportContext, 'user'>
  limits?: ExportLimits
}

const CONTENT_TYPES = {
  csv: 'text/csv; charset=utf-8',
  tsv: 'text/tab-separated-values; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
}

/** JSON only when asked for (Accept contains application/json); YAML otherwise, as the real service. */
function sendReport(
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): void {
  const json = (request.headers.accept ?? '').toLowerCase().includes('application/json')
  const text = json ? JSON.stringify(body) : toYaml(body)
  response.writeHead(status, {
    'Content-Type': json ? 'application/json' : 'application/x-yaml; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  })
  response.end(text)
}

function sendError(
  request: IncomingMessage,
  response: ServerResponse,
  status: ReportStatus,
  reason: string,
  headers: Record<string, string> = {},
  httpCode?: number,
): void {
  sendReport(request, response, httpCode ?? HTTP_CODE_OF_STATUS[status], { status, reason }, headers)
}

/** Handles `{report_url}/API/v2/<operation>`. */
export async function handleReporting(
  request: IncomingMessage,
  response: ServerResponse,
  operationName: string,
  body: ReadBody,
  dependencies: ReportingDependencies,
): Promise<void> {
  const operation = OPERATIONS.find((candidate) => candidate === operationName)
  if (!operation) {
    sendError(request, response, 'bad_request', `Unknown endpoint '${operationName}'; use ${OPERATIONS.join(', ')}`, {}, 404)
    return
  }
  if (request.method !== 'POST') {
    sendError(request, response, 'bad_request', `Method ${request.method ?? ''} is not allowed; use POST`, { Allow: 'POST' }, 405)
    return
  }
  if (body.tooLarge) {
    sendError(request, response, 'bad_request', 'The request body is larger than 1 MiB')
    return
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(body.bytes.toString('utf8'))
  } catch {
    sendError(request, response, 'bad_request', 'The request body is not valid JSON')
    return
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    sendError(request, response, 'bad_request', 'The request body must be a JSON object')
    return
  }
  const bodyToken = 'token' in parsed && typeof parsed.token === 'string' ? parsed.token : undefined
  const token = bodyToken ?? bearerToken(request)
  const user = dependencies.tokens.verify(token)
  if (!user || token === undefined) {
    sendError(request, response, 'access_error', token === undefined ? 'No token: send it in the body field token' : 'Wrong or expired token')
    return
  }
  const retryAfter = dependencies.faults.throttle(token)
  if (retryAfter !== null) {
    sendError(request, response, 'internal_error', `Too many requests; retry after ${retryAfter} s`, { 'Retry-After': String(retryAfter) }, 429)
    return
  }
  if (dependencies.faults.shouldFail()) {
    sendError(request, response, 'internal_error', 'Internal error (injected by the sandbox)')
    return
  }
  const forced = dependencies.faults.current.report_status
  if (forced) {
    sendError(
      request,
      response,
      forced,
      forced === 'timeout' ? 'The request took too long (injected by the sandbox)' : 'Internal error (injected by the sandbox)',
    )
    return
  }

  const context: ReportContext = { ...dependencies.context, user: user.name }
  try {
    const common = parseBody(commonSchema, parsed)
    if (common.project_name !== PROJECT) throw new ReportError('access_error', `No access to project '${common.project_name}'`)
    if (common.slicer_name !== SLICER) throw new ReportError('access_error', `No access to report '${common.slicer_name}' in project '${PROJECT}'`)
    switch (operation) {
      case 'info':
        sendReport(request, response, 200, info(context))
        return
      case 'time_series':
        sendReport(request, response, 200, timeSeries(context, parsed))
        return
      case 'audience':
        sendReport(request, response, 200, audience(context, parsed))
        return
      case 'export':
        await streamExport(response, planExport(context, parsed, dependencies.limits ?? EXPORT_LIMITS), dependencies.faults)
        return
    }
  } catch (error) {
    if (error instanceof ReportError) sendError(request, response, error.status, error.message)
    else if (!response.headersSent) sendError(request, response, 'internal_error', `Internal error: ${error instanceof Error ? error.message : String(error)}`)
    else response.destroy()
  }
}

/** A sink over the response that honours backpressure and the drop_export_after_bytes fault. */
function responseSink(response: ServerResponse, dropAfter: number): ByteSink {
  let sent = 0
  let dropped = false
  return {
    write(chunk) {
      if (dropped || response.destroyed) return true
      if (dropAfter > 0 && sent + chunk.length >= dropAfter) {
        // Simulates a download cut mid-way: the bytes up to the limit, then the connection dies.
        response.write(chunk.subarray(0, Math.max(0, dropAfter - sent)))
        dropped = true
        setImmediate(() => response.socket?.destroy())
        return true
      }
      sent += chunk.length
      return response.write(chunk)
    },
    drain() {
      return new Promise((resolve) => {
        if (response.destroyed || !response.writableNeedDrain) {
          resolve()
          return
        }
        const done = (): void => {
          response.off('drain', done)
          response.off('close', done)
          resolve()
        }
        response.on('drain', done)
        response.on('close', done)
      })
    },
    closed: () => dropped || response.destroyed,
  }
}

async function streamExport(response: ServerResponse, plan: ExportFile, faults: FaultState): Promise<void> {
  response.writeHead(200, {
    'Content-Type': CONTENT_TYPES[plan.format],
    'Content-Disposition': `attachment; filename="${plan.filename}"`,
    'X-Export-Rows': String(plan.rowCount),
    'X-Matching-Rows': String(plan.matchingRows),
  })
  const sink = responseSink(response, faults.current.drop_export_after_bytes)
  if (plan.format === 'xlsx') await writeXlsxExport(plan, sink)
  else await writeTextExport(plan, sink)
  if (!sink.closed()) response.end()
}
