import { PassThrough, type Readable } from 'node:stream'
import { REPORT_LIMITS } from '../../../common/limits'
import type { z } from 'zod'
import type { ConnectionSettings } from '../connection/settings'
import { AppError } from '../errors'
import { authorized } from '../auth/authorized'
import type { TokenProvider } from '../auth/token-provider'
import { contentTypeOf, type ResponseBody } from '../http/body'
import { readBody, readErrorBody, type HttpClient, type HttpResponse, type ResponseStream } from '../http/client'
import { badResponse, errorFromHttp, errorFromTransport, unreadableBody, type RequestContext } from '../http/errors'
import { excerpt, looksLikeYaml } from '../http/reasons'
import { maskSecrets } from '../http/secrets'
import { expectJson } from '../http/validate'
import {
  audienceSchema,
  reportInfoSchema,
  timeSeriesSchema,
  type AudienceResult,
  type ReportInfo,
  type ReportRequest,
  type ReportTarget,
  type TimeSeriesResult,
} from './schemas'
import { isReportTimezone } from './report-timezone'
import { errorFromReportingStatus, reportAccessDenied } from './statuses'
import { checkRequest } from './wire-schemas'

export interface ReportingCallOptions {
  signal?: AbortSignal
}

export interface ReportExport {
  /** The file's bytes as they arrive; read it (or destroy it) promptly, it holds a connection. */
  body: Readable
  contentType: string | null
  /** From Content-Disposition, when the service names the file. */
  fileName: string | null
}

export interface ReportingClient {
  info(target: ReportTarget, options?: ReportingCallOptions): Promise<ReportInfo>
  timeSeries(request: ReportRequest, options?: ReportingCallOptions): Promise<TimeSeriesResult>
  audience(request: ReportRequest, options?: ReportingCallOptions): Promise<AudienceResult>
  export(request: ReportRequest, options?: ReportingCallOptions): Promise<ReportExport>
}

export interface ReportingClientOptions {
  http: HttpClient
  tokens: TokenProvider
  settings: Pick<ConnectionSettings, 'reportUrl'>
}

type Operation = 'info' | 'time_series' | 'audience' | 'export'

/** What a query produced: a success JSON body, or an export file not read yet. */
type Answer = { kind: 'json'; body: ResponseBody; response: HttpResponse } | { kind: 'file'; response: HttpResponse }

export function createReportingClient({ http, tokens, settings }: ReportingClientOptions): ReportingClient {
  const base = settings.reportUrl.replace(/\/+$/, '')

  /**
   * One query: the token goes in the body and in the header (the spec shows both). Every
   * reporting call is a query, so it may be repeated on throttling and server trouble.
   * An access_error renews the token once; any other failure becomes its AppError. A field in
   * a shape the platform would misread fails here, before anything is sent.
   */
  function query(operation: Operation, request: ReportRequest, signal: AbortSignal | undefined): Promise<Answer> {
    assertTarget(request)
    const checked = operation === 'info' ? request : checkRequest(operation, request)
    const url = `${base}/API/v2/${operation}`
    return authorized<Answer>(tokens, signal, async (token, renewed) => {
      const response = await http.request({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${token}` },
        body: JSON.stringify({ ...checked, token }),
        read: true,
        signal,
        // An export streams to disk for as long as it takes; it keeps the idle timeout and its cancel, not the overall deadline.
        ...(operation === 'export' ? { deadlineMs: null } : {}),
      })
      const answer = await judge(response, operation === 'export', signal)
      if (!(answer instanceof AppError)) return { value: answer }
      if (answer.details?.apiStatus === 'access_error') {
        // A token issued a moment ago was refused too: not a sign-in problem but a missing permission.
        if (renewed) throw reportAccessDenied(answer)
        return { rejected: answer }
      }
      throw answer
    })
  }

  async function jsonQuery<Schema extends z.ZodType>(
    operation: Operation,
    schema: Schema,
    request: ReportRequest,
    signal: AbortSignal | undefined,
  ): Promise<z.output<Schema>> {
    const answer = await query(operation, request, signal)
    const body = answer.kind === 'json' ? answer.body : await readBody(answer.response, signal)
    return expectJson(schema, body, answer.response.status, answer.response.context, `The ${operation.replace('_', ' ')} answer`)
  }

  return {
    async info(target, options = {}) {
      const info = await jsonQuery('info', reportInfoSchema, { project_name: target.project_name, slicer_name: target.slicer_name }, options.signal)
      checkReportTimezone(info.timezone, { method: 'POST', url: `${base}/API/v2/info` })
      return info
    },
    timeSeries: (request, options = {}) => jsonQuery('time_series', timeSeriesSchema, request, options.signal),
    audience: (request, options = {}) => jsonQuery('audience', audienceSchema, request, options.signal),
    async export(request, options = {}) {
      const answer = await query('export', request, options.signal)
      if (answer.kind === 'json')
        throw badResponse('the export came back as JSON instead of a file.', answer.response.context, { httpStatus: answer.response.status })
      const { response } = answer
      return {
        body: guardStream(response.body, response.context, options.signal),
        contentType: contentTypeOf(response.headers),
        fileName: fileNameOf(response.headers['content-disposition']),
      }
    },
  }
}

/**
 * Decides what an answer is before its body is trusted. The `status` field is the truth
 * whatever the HTTP code; without one, the HTTP code decides. An export's success is a file
 * of any type except the structured ones an error comes in (JSON, YAML, HTML).
 */
async function judge(response: HttpResponse, expectFile: boolean, signal: AbortSignal | undefined): Promise<Answer | AppError> {
  const contentType = contentTypeOf(response.headers) ?? ''
  const ok = response.status >= 200 && response.status < 300
  const structured = contentType.includes('json') || contentType.includes('yaml') || contentType.includes('html')
  if (ok && expectFile && !structured) return { kind: 'file', response }
  // Error answers are read bounded; a success JSON answer is read whole.
  const body = ok && !expectFile ? await readBody(response, signal) : await readErrorBody(response)
  // Throttling is the one case where the HTTP code says more than the status (internal_error):
  // the user needs the wait from Retry-After, not "the service failed".
  if (response.status === 429) return errorFromHttp({ status: response.status, headers: response.headers, body, context: response.context })
  if (body.kind === 'json' && typeof body.value === 'object' && body.value !== null && !Array.isArray(body.value)) {
    const record = body.value as Record<string, unknown>
    if (typeof record.status === 'string' && record.status !== 'success') {
      // A success-coded answer is read whole, not through the error reader: mask and bound its reason here.
      const reason = typeof record.reason === 'string' && record.reason.trim() !== '' ? excerpt(maskSecrets(record.reason, response.secrets)) : null
      return errorFromReportingStatus(record.status, reason, response.status, response.context)
    }
    if (record.status === 'success') return { kind: 'json', body, response }
  }
  // Reporting's HTTP codes are not part of its spec, so a YAML answer (the service ignoring
  // Accept) is reported as what it is rather than guessed from the code.
  if (body.kind === 'text' && looksLikeYaml(body.text, body.contentType)) return unreadableBody(body, response.status, response.context)
  if (!ok) return errorFromHttp({ status: response.status, headers: response.headers, body, context: response.context })
  if (body.kind !== 'json') return unreadableBody(body, response.status, response.context)
  return { kind: 'json', body, response }
}

/**
 * The export's bytes, with a broken connection or a cancel turned into the AppError the caller
 * can show. A pass-through stream over the socket's body, so the bytes flow on as fast as the
 * reader takes them (an async generator here cost a promise per chunk); destroying it closes
 * the download.
 */
/** What the pass-through over an export's body holds before it pauses the socket. */
const GUARD_BUFFER_BYTES = 1024 * 1024

function guardStream(source: ResponseStream, context: RequestContext, signal: AbortSignal | undefined): Readable {
  const guarded = new PassThrough({ highWaterMark: GUARD_BUFFER_BYTES })
  source.once('error', (error: unknown) => guarded.destroy(errorFromTransport(error, context, signal)))
  // A cut before the reader comes (the file being opened) must not crash the process: the error
  // stays on the stream (`errored`), and the reader's pipeline or loop fails with it.
  guarded.on('error', () => undefined)
  guarded.once('close', () => {
    if (!source.destroyed) source.destroy()
  })
  source.pipe(guarded)
  return guarded
}

function fileNameOf(header: string | string[] | undefined): string | null {
  const value = Array.isArray(header) ? header[0] : header
  if (value === undefined) return null
  const encoded = /filename\*=(?:UTF-8'')?([^;]+)/i.exec(value)
  if (encoded?.[1] !== undefined) {
    try {
      return decodeURIComponent(encoded[1].trim().replace(/^"|"$/g, ''))
    } catch {
      /* fall through to the plain form */
    }
  }
  const plain = /filename="?([^";]+)"?/i.exec(value)
  return plain?.[1]?.trim() ?? null
}

/**
 * The report's timezone is kept as a schedule's offset and sent back as `timezone`: the spec allows
 * whole hours from -12 to +12 only, so anything else (0.01, 1e308) is refused here, before it is kept.
 */
function checkReportTimezone(timezone: number | undefined, context: RequestContext): void {
  if (timezone === undefined || isReportTimezone(timezone)) return
  const { min, max } = REPORT_LIMITS.utcOffsetHours
  throw badResponse(`it gave a report timezone AdOps Desk cannot use (${timezone}); a timezone is a whole number of hours from ${min} to +${max}.`, context, {
    reason: `timezone ${timezone}`,
  })
}

function assertTarget(request: ReportRequest): void {
  const missing = (['project_name', 'slicer_name'] as const).filter((key) => typeof request[key] !== 'string' || request[key].trim() === '')
  if (missing.length > 0) {
    throw new AppError('validation', `A report request needs ${missing.join(' and ')}.`, {
      fields: Object.fromEntries(missing.map((key) => [key, ['Required']])),
    })
  }
}
