import { promises as nodeFs } from 'node:fs'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { HttpClient } from '../../../main/services/http/client'
import { createReportingClient } from '../../../main/services/reporting/client'
import { saveStreamAtomically, type SaveFs } from '../../../main/services/reporting/save-export'
import type { ReportRequest } from '../../../main/services/reporting/schemas'
import { fastHttp, recordWire, startHarness, type Harness } from './support/sandbox'
import { caught } from './support/outcomes'
import { startTinyServer } from './support/tiny-server'

let harness: Harness
let folder: string

beforeAll(async () => {
  harness = await startHarness()
  folder = await mkdtemp(path.join(os.tmpdir(), 'adops-reporting-'))
})
afterAll(async () => {
  await harness.close()
  await rm(folder, { recursive: true, force: true })
})
afterEach(() => {
  harness.sandbox.reset()
})

const report = { project_name: 'demo', slicer_name: 'supply' }
const week = { start_date: '-7d', end_date: 'yesterday' }
const timeSeriesRequest: ReportRequest = {
  ...report,
  ...week,
  granularity: 'granularity_day',
  split_by: ['country'],
  chart_lines: ['__total__'],
  data_field: 'impressions',
}
const exportRequest: ReportRequest = { ...report, ...week, split_by: ['country'], export_format: 'csv', data_fields: ['impressions'] }

describe('reporting client over the sandbox', () => {
  it('info describes the report', async () => {
    const info = await harness.connect().reporting.info(report)
    expect(info.status).toBe('success')
    expect(info.key_fields.map((field) => field.name)).toContain('granularity_day')
    expect(info.data_fields.map((field) => field.name)).toContain('impressions')
  })

  it('time series rows carry the chart lines', async () => {
    const result = await harness.connect().reporting.timeSeries(timeSeriesRequest)
    expect(result.rows).toHaveLength(7)
    for (const row of result.rows) {
      expect(typeof row.__time__).toBe('string')
      expect(typeof row.__total__).toBe('number')
    }
  })

  it('audience gives totals and rows', async () => {
    const result = await harness.connect().reporting.audience({ ...report, ...week, split_by: ['country'] })
    expect(result.total.data?.[0]?.name).toBe('unique_users')
    expect(result.rows.length).toBeGreaterThan(0)
    expect(result.rows[0]?.name).toHaveLength(1)
  })

  it('export is a stream the caller writes, with its content type and file name', async () => {
    const download = await harness.connect().reporting.export(exportRequest)
    expect(download.contentType).toMatch(/^text\/csv/)
    expect(download.fileName).toMatch(/\.csv$/)
    const target = path.join(folder, 'report.csv')
    const { bytes } = await saveStreamAtomically(download.body, target)
    const text = await readFile(target, 'utf8')
    expect(Buffer.byteLength(text)).toBe(bytes)
    expect(text.split(/\r?\n/)[0]).toBe('country,country Name,impressions')
  })

  it('sends the token in the body and in the header', async () => {
    const seen: Array<{ authorization: string | undefined; token: unknown }> = []
    const spying: HttpClient = {
      request: (request) => {
        seen.push({ authorization: request.headers?.authorization, token: JSON.parse(request.body ?? '{}').token })
        return harness.http.request(request)
      },
      close: () => harness.http.close(),
    }
    const connection = harness.connect()
    const reporting = createReportingClient({ http: spying, tokens: connection.tokens.reporting, settings: harness.settings })
    await reporting.info(report)
    const token = (await connection.tokens.reporting.get()).value
    expect(seen).toEqual([{ authorization: `Bearer ${token}`, token }])
  })
})

describe("requests in the platform's shapes", () => {
  /** A client whose requests are recorded (their parsed bodies) before they go out. */
  function spied(): { reporting: ReturnType<typeof createReportingClient>; sent: Array<Record<string, unknown>> } {
    const sent: Array<Record<string, unknown>> = []
    const spying: HttpClient = {
      request: (request) => {
        sent.push(JSON.parse(request.body ?? '{}') as Record<string, unknown>)
        return harness.http.request(request)
      },
      close: () => harness.http.close(),
    }
    return { reporting: createReportingClient({ http: spying, tokens: harness.connect().tokens.reporting, settings: harness.settings }), sent }
  }

  it('sends data_filters with match, order_by in upper case and the vendor match spellings, and the sandbox serves them', async () => {
    const { reporting, sent } = spied()
    const request: ReportRequest = {
      ...timeSeriesRequest,
      granularity: 'country',
      limit: 100,
      filters: [{ name: 'country', value: ['united'], match: 'not beginswith', case_insensitive: 1, search_mappings: 1 }],
      data_filters: [{ name: 'impressions', match: '>', value: '0' }],
      order_by: { name: 'country', direction: 'desc' },
    }
    const result = await reporting.timeSeries(request)
    const countries = result.rows.map((row) => String(row.__time__))
    expect(countries).not.toContain('US')
    expect(countries).not.toContain('GB')
    expect(countries.length).toBeGreaterThan(5)
    expect(countries).toEqual([...countries].sort().reverse())
    expect(sent.at(-1)).toMatchObject({ order_by: { name: 'country', direction: 'DESC' }, data_filters: [{ name: 'impressions', match: '>', value: '0' }] })
  })

  it('sends audience_key and audience_rows_limit through', async () => {
    const { reporting, sent } = spied()
    const result = await reporting.audience({ ...report, ...week, split_by: [], audience_key: 'households', audience_rows_limit: 10_000 })
    expect(result.total.data?.[0]?.name).toBe('unique_households')
    expect(sent.at(-1)).toMatchObject({ audience_key: 'households', audience_rows_limit: 10_000 })
  })

  it('refuses an older shape before sending anything, naming the field', async () => {
    const { reporting, sent } = spied()
    const oldFilter = await caught(reporting.export({ ...exportRequest, data_filters: [{ name: 'impressions', operator: '>', value: 1 }] }))
    expect(oldFilter.code).toBe('validation')
    expect(oldFilter.message).toContain('data_filters[0].operator')
    expect(oldFilter.details?.['fields']).toHaveProperty(['data_filters[0].match'])
    const tooFew = await caught(reporting.audience({ ...report, ...week, split_by: [], audience_rows_limit: 500 }))
    expect(tooFew.code).toBe('validation')
    expect(tooFew.message).toContain('audience_rows_limit')
    const sideways = await caught(reporting.timeSeries({ ...timeSeriesRequest, order_by: [{ name: 'country', direction: 'sideways' }] }))
    expect(sideways.message).toContain('order_by[0].direction')
    expect(sent).toEqual([])
  })

  it('leaves an unknown audience_key to the platform, whose reason comes back', async () => {
    const error = await caught(harness.connect().reporting.audience({ ...report, ...week, split_by: [], audience_key: 'devices' }))
    expect(error.code).toBe('validation')
    expect(error.details).toMatchObject({ apiStatus: 'bad_request' })
    expect(error.message).toContain("audience_key: unknown audience source 'devices'")
  })
})

describe('reporting statuses, each mapped to its case whatever the HTTP code', () => {
  it('bad_request → validation with the reason', async () => {
    const error = await caught(harness.connect().reporting.timeSeries({ ...report, granularity: 'granularity_day' }))
    expect(error.code).toBe('validation')
    expect(error.details).toMatchObject({ apiStatus: 'bad_request', reason: 'Invalid parameter: start_date is required' })
    expect(error.message).toContain('start_date is required')
  })

  it('access_error for a project the user may not see → forbidden, after one renewal', async () => {
    const wire = recordWire()
    try {
      const error = await caught(harness.connect().reporting.info({ project_name: 'secret', slicer_name: 'supply' }))
      expect(error.code).toBe('forbidden')
      expect(error.details).toMatchObject({ apiStatus: 'access_error' })
      expect(error.message).toContain("No access to project 'secret'")
      expect(wire.count('POST', '/API/v2/info')).toBe(2)
      expect(wire.count('POST', '/oauth2/token/')).toBe(2)
    } finally {
      wire.stop()
    }
  })

  it('access_error for a token that cannot be renewed → auth ("Sign-in rejected")', async () => {
    const { reporting } = harness.connect({ credentials: async () => ({ method: 'token', token: 'revoked' }) })
    const error = await caught(reporting.info(report))
    expect(error.code).toBe('auth')
    expect(error.message).toMatch(/^Sign-in rejected: Wrong or expired token\./)
  })

  it('timeout → timeout', async () => {
    harness.sandbox.setFaults({ report_status: 'timeout' })
    const error = await caught(harness.connect().reporting.info(report))
    expect(error.code).toBe('timeout')
    expect(error.details?.apiStatus).toBe('timeout')
  })

  it('internal_error → server', async () => {
    harness.sandbox.setFaults({ report_status: 'internal_error' })
    const error = await caught(harness.connect().reporting.audience({ ...report, ...week, split_by: ['country'] }))
    expect(error.code).toBe('server')
    expect(error.details?.apiStatus).toBe('internal_error')
  })

  it('an injected internal_error on a query is retried like any read', async () => {
    const connection = harness.connect()
    await connection.tokens.reporting.get()
    harness.sandbox.setFaults({ fail_rate: 0.5 })
    await connection.reporting.info(report) // first request passes, the next one fails once
    const info = await connection.reporting.info(report)
    expect(info.status).toBe('success')
  })

  it('throttling (429 with internal_error) → throttled with the wait, once retries give up', async () => {
    // A sandbox whose clock stands still: its one-request-per-second budget never refills.
    const frozen = await startHarness({ now: () => new Date('2030-01-01T00:00:00.250Z') })
    const impatient = fastHttp({ retry: { maxRetryAfterMs: 100 } })
    try {
      const connection = frozen.connect({ now: () => Date.parse('2030-01-01T00:00:00.250Z') })
      const reporting = createReportingClient({ http: impatient, tokens: connection.tokens.reporting, settings: frozen.settings })
      frozen.sandbox.setFaults({ throttle_per_s: 1 })
      await reporting.info(report)
      const error = await caught(reporting.info(report))
      expect(error.code).toBe('throttled')
      expect(error.details?.retryAfterSeconds).toBeGreaterThanOrEqual(1)
    } finally {
      await impatient.close()
      await frozen.close()
    }
  })

  it('a YAML answer (the service ignoring Accept) is a clear bad_response', async () => {
    // The sandbox answers YAML like the real service when JSON is not asked for; make the request forget to ask.
    const forgetful: HttpClient = {
      request: (request) => harness.http.request({ ...request, headers: { ...request.headers, accept: '*/*' } }),
      close: async () => undefined,
    }
    const connection = harness.connect()
    const reporting = createReportingClient({ http: forgetful, tokens: connection.tokens.reporting, settings: harness.settings })
    const error = await caught(reporting.info(report))
    expect(error.code).toBe('bad_response')
    expect(error.message).toMatch(/YAML instead of JSON/)
    expect(error.details?.contentType).toMatch(/yaml/)
    // An error answer in YAML is no better: still bad_response, not a crash.
    const failed = await caught(reporting.info({ project_name: 'demo', slicer_name: 'nope' }))
    expect(failed.code).toBe('bad_response')
  })
})

describe('export failures leave nothing behind', () => {
  it('a connection cut mid-download: network error, no file at the target, no temp file, an older file kept', async () => {
    const target = path.join(folder, 'cut.csv')
    await writeFile(target, 'previous report\n')
    harness.sandbox.setFaults({ drop_export_after_bytes: 60 })
    const download = await harness.connect().reporting.export(exportRequest)
    const error = await caught(saveStreamAtomically(download.body, target))
    expect(error.code).toBe('network')
    expect(await readFile(target, 'utf8')).toBe('previous report\n')
    expect((await readdir(folder)).filter((name) => name.endsWith('.tmp'))).toEqual([])
  })

  it('a download cancelled mid-stream, after bytes arrived: cancelled, no file at the target, the temp file removed', async () => {
    // A stub that sends the file's first rows and holds the rest back: the cancel surely lands
    // between bytes that arrived and bytes still to come (the sandbox sends a whole export faster
    // than the client takes its first chunk).
    let closedBeforeTheEnd: Promise<boolean> = Promise.resolve(false)
    const stub = await startTinyServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="held.csv"' })
      response.write('country,impressions\nDE,100\nFR,200\n')
      closedBeforeTheEnd = new Promise((resolve) => response.on('close', () => resolve(!response.writableFinished)))
    })
    const target = path.join(folder, 'cancelled.csv')
    const opened: string[] = []
    const recordingFs: SaveFs = {
      open: ((file: string, flags: string) => {
        opened.push(file)
        return nodeFs.open(file, flags)
      }) as SaveFs['open'],
      rename: nodeFs.rename,
      rm: nodeFs.rm,
    }
    try {
      const connection = harness.connect()
      const reporting = createReportingClient({ http: harness.http, tokens: connection.tokens.reporting, settings: { reportUrl: stub.url } })
      const controller = new AbortController()
      const download = await reporting.export(exportRequest, { signal: controller.signal })
      let bytesAtCancel = 0
      const error = await caught(
        saveStreamAtomically(download.body, target, {
          signal: controller.signal,
          fs: recordingFs,
          onProgress(bytes) {
            // The first rows are in the temp file: cancel now, with the rest of the file still to come.
            bytesAtCancel = bytes
            controller.abort()
          },
        }),
      )
      expect(error.code).toBe('cancelled')
      expect(bytesAtCancel).toBeGreaterThan(0)
      await expect(readFile(target)).rejects.toMatchObject({ code: 'ENOENT' })
      expect(opened).toHaveLength(1)
      await expect(readFile(opened[0] as string)).rejects.toMatchObject({ code: 'ENOENT' })
      expect((await readdir(folder)).filter((name) => name.endsWith('.tmp'))).toEqual([])
      // The cancel let go of the connection instead of leaving the download open.
      expect(await closedBeforeTheEnd).toBe(true)
    } finally {
      await stub.close()
    }
  })

  it('an export error answer is its status, not a file', async () => {
    const error = await caught(harness.connect().reporting.export({ ...exportRequest, export_format: 'pdf' }))
    expect(error.code).toBe('validation')
    expect(error.message).toContain('export_format')
  })
})
