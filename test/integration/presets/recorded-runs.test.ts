import { promises as fs } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { ReportDefinition, TimeSeriesView } from '@contract'
import { startSandbox, type Sandbox } from '../../../main/sandbox'
import { dispatch } from '../../../main/handlers/dispatch'
import { createHandlers, type Handlers } from '../../../main/handlers/handlers'
import { resultsFolder } from '../../../main/services/results/result-cache'
import { runHistoryFolder } from '../../../main/services/run-history/run-history-store'
import { call, sandboxDefinition } from '../../support/handler-calls'
import { createTestServices } from '../../support/services'
import { readKeptFile } from '../../support/kept-files'
import { recordWire } from '../clients/support/sandbox'

type TestServices = Awaited<ReturnType<typeof createTestServices>>

/** The supply report split by country, top 3, tv left out: a run with a filter and a breakdown to keep. */
const definition = (overrides: Partial<ReportDefinition>): ReportDefinition =>
  sandboxDefinition({
    breakdown: ['country'],
    lines: { mode: 'top', count: 3, by: null, includeTotal: true },
    filters: [{ key: 'device_type', match: 'not equals', values: ['tv'], caseInsensitive: true, searchNames: false }],
    ...overrides,
  })

async function filesUnder(folder: string): Promise<string[]> {
  const found: string[] = []
  for (const entry of await fs.readdir(folder, { withFileTypes: true }).catch(() => [])) {
    const full = path.join(folder, entry.name)
    if (entry.isDirectory()) found.push(...(await filesUnder(full)))
    else found.push(full)
  }
  return found
}

describe('runs are recorded: the result kept per connection, a line in the history', () => {
  let sandbox: Sandbox
  let services: TestServices
  let handlers: Handlers
  let viewerId: string
  let tokenId: string

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 })
    services = await createTestServices()
    handlers = createHandlers(services, { nativeSaveDialog: false })
    const { info } = sandbox
    const target = { baseUrl: info.base_url, authUrl: info.auth_url, reportUrl: info.report_url, serviceId: info.service_id }
    // The viewer's password appears nowhere in the demo data, so finding it in a file means a leak.
    viewerId = (
      await services.profiles.create({
        name: 'Sandbox reader',
        ...target,
        auth: { method: 'password', username: info.viewer_username, password: info.viewer_password },
      })
    ).id
    tokenId = (await services.profiles.create({ name: 'Sandbox token', ...target, auth: { method: 'token', token: info.permanent_token } })).id
  })
  afterAll(async () => {
    await services.close()
    await sandbox.close()
  })

  it("keeps a preset's chart with the requests it sent, and shows it again at once, in any case of the name", async () => {
    const made = definition({})
    const wire = recordWire()
    let result: TimeSeriesView
    try {
      result = await call(handlers, 'reports:run', { profileId: viewerId, definition: made, preset: 'Weekly EU' })
    } finally {
      wire.stop()
    }
    await services.reports.flush()
    const cached = await call(handlers, 'results:get', { profileId: viewerId, definition: made, preset: 'weekly eu', kind: 'chart' })
    expect(cached).toEqual({ kind: 'chart', preset: 'Weekly EU', ranAt: result.ranAt, result })
    // Another connection has nothing for it: the cache is per connection.
    expect(await call(handlers, 'results:get', { profileId: tokenId, definition: made, preset: 'Weekly EU', kind: 'chart' })).toBeNull()

    const [file] = await filesUnder(path.join(resultsFolder(services.userDataDir), viewerId))
    const stored = (await readKeptFile(file as string)) as unknown as {
      requests: Array<{ operation: string; body: Record<string, unknown> }>
      ranAt: string
    }
    // The ranking call, then the chart: the bodies as built, dates resolved, no token.
    expect(stored.requests.map((request) => [request.operation, request.body.granularity])).toEqual([
      ['time_series', 'country'],
      ['time_series', 'granularity_day'],
    ])
    expect(stored.requests[1]?.body).toMatchObject({
      project_name: 'demo',
      slicer_name: 'supply',
      start_date: result.range.start,
      end_date: result.range.end,
      timezone: 3,
      data_field: 'impressions',
    })
    expect(stored.requests.every((request) => !('token' in request.body))).toBe(true)
    expect(wire.count('POST', '/API/v2/time_series')).toBe(2)

    const { entries } = await call(handlers, 'history:list', { preset: 'WEEKLY eu' })
    expect(entries).toHaveLength(1)
    expect(entries[0]).toMatchObject({
      profileId: viewerId,
      connection: 'Sandbox reader',
      preset: 'Weekly EU',
      kind: 'chart',
      project: 'demo',
      report: 'supply',
      dates: { start: '-14d', end: 'yesterday' },
      range: { start: result.range.start, end: result.range.end, timezone: 3 },
      rows: 14,
      points: 14 * 4,
      outcome: 'ok',
      error: null,
    })
    const opened = await call(handlers, 'history:get', { id: entries[0]?.id })
    expect(opened.definition).toEqual(made)
  })

  it('records audience runs, failures with their sentence, and cancels', async () => {
    const made = definition({ audience: { source: null, rowsLimit: 100_000, breakdown: ['country'] } })
    const audience = await call(handlers, 'reports:audience', { profileId: tokenId, definition: made })
    await services.reports.flush()
    expect(await call(handlers, 'results:get', { profileId: tokenId, definition: made, kind: 'audience' })).toEqual({
      kind: 'audience',
      preset: null,
      ranAt: audience.ranAt,
      result: audience,
    })

    sandbox.setFaults({ report_status: 'timeout' })
    const failed = await dispatch(handlers, 'reports:run', { profileId: tokenId, definition: definition({ breakdown: [] }), preset: 'Daily' })
    sandbox.reset()
    expect(failed.ok).toBe(false)

    sandbox.setFaults({ latency_ms: 60_000 })
    const running = dispatch(handlers, 'reports:run', { profileId: tokenId, definition: definition({ breakdown: [] }), requestId: 'slow' })
    const wire = recordWire()
    try {
      await vi.waitFor(() => expect(wire.count('POST', '/API/v2/time_series')).toBe(1), { timeout: 10_000, interval: 10 })
    } finally {
      wire.stop()
    }
    await call(handlers, 'requests:cancel', { requestId: 'slow' })
    expect(await running).toMatchObject({ ok: false, error: { code: 'cancelled' } })
    sandbox.reset()
    await services.reports.flush()

    const errors = await call(handlers, 'history:list', { outcome: 'error' })
    expect(errors.entries).toEqual([expect.objectContaining({ preset: 'Daily', outcome: 'error', rows: null, error: !failed.ok ? failed.error.message : '' })])
    expect(errors.entries[0]?.error).toMatch(/took too long/)
    expect(errors.entries[0]?.range).toMatchObject({ timezone: 3 })
    const cancelled = await call(handlers, 'history:list', { outcome: 'cancelled' })
    expect(cancelled.entries).toEqual([expect.objectContaining({ preset: null, outcome: 'cancelled', connection: 'Sandbox token' })])
    const audiences = await call(handlers, 'history:list', { search: 'audience' })
    expect(audiences.entries.map((entry) => [entry.kind, entry.rows])).toEqual([['audience', audience.rows.length]])
    // A failed run keeps nothing in the cache.
    expect(await call(handlers, 'results:get', { profileId: tokenId, definition: definition({ breakdown: [] }), preset: 'Daily', kind: 'chart' })).toBeNull()
  })

  it('never writes a password or a token into the saved results, the history or the saved info', async () => {
    const tokens = [
      sandbox.info.permanent_token,
      (await services.workspace.connection(viewerId)).tokens.reporting.current()?.value,
      (await services.workspace.connection(tokenId)).tokens.reporting.current()?.value,
    ]
    expect(tokens.every((token) => typeof token === 'string' && token.length >= 8)).toBe(true)
    const files = [
      ...(await filesUnder(resultsFolder(services.userDataDir))),
      ...(await filesUnder(runHistoryFolder(services.userDataDir))),
      ...(await filesUnder(path.join(services.userDataDir, 'reports'))),
    ]
    expect(files.length).toBeGreaterThan(4)
    for (const file of files) {
      const text = await fs.readFile(file, 'utf8')
      expect(text, file).not.toContain(sandbox.info.viewer_password)
      for (const token of tokens) expect(text, file).not.toContain(token as string)
      expect(text, file).not.toMatch(/"(token|password|access_token)"\s*:/)
    }
  })

  it('copies a definition as the API requests the run sends, with date tokens and the token as a placeholder', async () => {
    const made = definition({ lines: { mode: 'pick', values: ['DE', 'FR'], includeTotal: true }, metrics: ['impressions', 'revenue'] })
    const result = await call(handlers, 'reports:run', { profileId: viewerId, definition: made })
    await services.reports.flush()
    const copy = await call(handlers, 'reports:request', { profileId: viewerId, definition: made, kind: 'chart' })
    expect(copy.requests.map((request) => [request.purpose, request.operation, request.url])).toEqual([
      ['Chart: impressions', 'time_series', `${sandbox.info.report_url.replace(/\/+$/, '')}/API/v2/time_series`],
      ['Chart: revenue', 'time_series', `${sandbox.info.report_url.replace(/\/+$/, '')}/API/v2/time_series`],
    ])
    const first = JSON.parse(copy.requests[0]?.body ?? '{}') as Record<string, unknown>
    expect(Object.keys(first).slice(0, 3)).toEqual(['project_name', 'slicer_name', 'token'])
    expect(first).toMatchObject({ token: '<ACCESS_TOKEN>', start_date: '-14d', end_date: 'yesterday', chart_lines: ['DE', 'FR', '__total__'] })
    expect(copy.curl).toContain("-H 'Authorization: Bearer <ACCESS_TOKEN>'")
    expect(copy.curl.match(/^curl /gm)).toHaveLength(2)
    const current = (await services.workspace.connection(viewerId)).tokens.reporting.current()?.value
    expect(copy.curl).not.toContain(current)

    // What is copied is what was sent: the same body as the run's, but for the dates and the token.
    const [file] = (await filesUnder(path.join(resultsFolder(services.userDataDir), viewerId))).filter((name) => name.endsWith('.kept'))
    const kept = await Promise.all(
      (await filesUnder(path.join(resultsFolder(services.userDataDir), viewerId))).map(
        async (name) => (await readKeptFile(name)) as unknown as { ranAt: string; requests: Array<{ body: Record<string, unknown> }> },
      ),
    )
    const sent = kept.find((entry) => entry.ranAt === result.ranAt)?.requests[0]?.body
    expect(file).toBeDefined()
    const { token: _token, ...copied } = first
    expect({ ...copied, start_date: result.range.start, end_date: result.range.end }).toEqual(sent)

    // The copied body runs as it is on the platform (tokens are the platform's own grammar) and gives the chart's numbers.
    const direct = (await services.workspace.connection(viewerId)).reporting
    const answer = await direct.timeSeries(copied as { project_name: string; slicer_name: string })
    expect(answer.rows.map((row) => row.DE ?? null)).toEqual(result.series.find((series) => series.key === 'impressions|DE')?.values)

    // Pasting the copied body gives the definition back.
    const pasted = await call(handlers, 'requests:parse', { text: copy.requests[0]?.body, base: made })
    expect(pasted).toEqual({ definition: { ...made, metrics: ['impressions'] }, unread: [] })
  })

  it('a top N copy carries the ranking request and the lines the last run found', async () => {
    const made = definition({})
    const copy = await call(handlers, 'reports:request', { profileId: viewerId, definition: made, kind: 'chart' })
    expect(copy.requests.map((request) => request.purpose)).toEqual([
      "Ranking: the top 3 country by impressions (the rows' __time__ are the chart lines)",
      'Chart: impressions',
    ])
    const ranking = JSON.parse(copy.requests[0]?.body ?? '{}') as Record<string, unknown>
    expect(ranking).toMatchObject({ granularity: 'country', order_by: [{ name: 'impressions', direction: 'DESC', mapping: 0 }], limit: 3, start_date: '-14d' })
    const audience = await call(handlers, 'reports:request', { profileId: viewerId, definition: made, kind: 'audience' })
    expect(audience.requests.map((request) => request.operation)).toEqual(['audience'])
    expect(JSON.parse(audience.requests[0]?.body ?? '{}')).toMatchObject({
      token: '<ACCESS_TOKEN>',
      audience_rows_limit: 1_000_000,
      split_by: ['granularity_day'],
      start_date: '-14d',
    })
  })

  it('deleting a connection removes its saved results and keeps the history', async () => {
    const before = (await call(handlers, 'history:list', { profileId: tokenId })).total
    expect(await filesUnder(path.join(resultsFolder(services.userDataDir), tokenId))).not.toEqual([])
    await call(handlers, 'profiles:delete', { id: tokenId })
    expect(await filesUnder(path.join(resultsFolder(services.userDataDir), tokenId))).toEqual([])
    expect((await call(handlers, 'history:list', { profileId: tokenId })).total).toBe(before)
  })
})
