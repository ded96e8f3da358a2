/**
 * Issue 38 item 6 (review M4): a report timezone the platform answers as 0.01 must never reach the
 * schedules file. It was stored as `reportOffsetMinutes: 0.6`, the next reader found the whole file
 * invalid and moved it aside, and every schedule was gone.
 */
import { promises as fs } from 'node:fs'
import path from 'node:path'
import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import type { Notice } from '@contract'
import type { TokenProvider } from '../../../main/services/auth/token-provider'
import { AppError } from '../../../main/services/errors'
import type { HttpClient, HttpResponse } from '../../../main/services/http/client'
import { createNotices } from '../../../main/services/notices'
import { createReportingClient } from '../../../main/services/reporting/client'
import type { ReportInfo } from '../../../main/services/reporting/schemas'
import { createDiskInfoStore } from '../../../main/services/reports/info-store'
import { caught } from '../../integration/clients/support/outcomes'
import { temporaryFolder } from '../../support/services'
import { createHarness, draftWithFolder } from './support'

/** An HTTP client that answers every call with one JSON body. */
function answering(body: unknown): HttpClient {
  return {
    async request(request): Promise<HttpResponse> {
      return {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: Readable.from([Buffer.from(JSON.stringify(body))]) as unknown as HttpResponse['body'],
        context: { method: request.method, url: request.url },
      }
    },
    close: async () => undefined,
  }
}

const tokens: TokenProvider = {
  serviceId: 'reporting',
  get: async () => ({ value: 'token', expiresAt: null }),
  renew: async () => null,
  current: () => null,
  forget: () => undefined,
}

const infoAnswer = (timezone: unknown) => ({ status: 'success', timezone, key_fields: [], data_fields: [] })
const target = { project_name: 'demo', slicer_name: 'supply' }

describe('the report timezone where info is read', () => {
  it('takes a whole number of hours within the platform range', async () => {
    for (const timezone of [-12, 0, 3, 12]) {
      const reporting = createReportingClient({ http: answering(infoAnswer(timezone)), tokens, settings: { reportUrl: 'https://report.test' } })
      expect((await reporting.info(target)).timezone).toBe(timezone)
    }
  })

  it('refuses 0.01, 5.5, 13 and 1e308 with a sentence saying the timezone cannot be used', async () => {
    for (const timezone of [0.01, 5.5, 13, -13, 1e308]) {
      const reporting = createReportingClient({ http: answering(infoAnswer(timezone)), tokens, settings: { reportUrl: 'https://report.test' } })
      const error = await caught(reporting.info(target))
      expect(error.code, String(timezone)).toBe('bad_response')
      expect(error.message).toContain(`a report timezone AdOps Desk cannot use (${timezone})`)
      expect(error.message).toMatch(/whole number of hours from -12 to \+12/)
    }
  })
})

describe('the copies of info kept on disk', () => {
  it('never keep a timezone the app cannot use, and one kept by an older version is fetched again', async () => {
    const userData = await temporaryFolder('adops-info-copies-')
    const notices = createNotices()
    const store = createDiskInfoStore(userData, notices)
    const entry = (timezone: number) => ({ project: 'demo', report: 'supply', fetchedAt: '2026-11-26T06:00:00.000Z', info: infoAnswer(timezone) as ReportInfo })
    await store.write('demo', entry(2))
    const error = await caught(store.write('demo', entry(0.01)))
    expect(error.code).toBe('storage')
    expect((await createDiskInfoStore(userData, notices).read('demo', 'demo', 'supply'))?.info.timezone).toBe(2)

    // A copy an older version kept as the platform sent it: moved aside with a notice, not used.
    const [file] = await fs.readdir(path.join(userData, 'reports', 'info', 'demo', 'demo'))
    const filePath = path.join(userData, 'reports', 'info', 'demo', 'demo', file ?? '')
    await fs.writeFile(filePath, JSON.stringify({ version: 1, ...entry(0.01) }))
    expect(await createDiskInfoStore(userData, notices).read('demo', 'demo', 'supply')).toBeNull()
    expect(notices.list().map((notice) => notice.message)).toEqual([expect.stringMatching(/timezone is not a whole number of hours/)])
  })
})

describe('a schedule in the report timezone', () => {
  it('is refused with a sentence when the offset is 0.01 hours, and the schedules already saved stay readable after a restart', async () => {
    let offsetHours = 1
    const folder = path.join(await temporaryFolder('adops-report-offset-'), 'schedules')
    const harness = await createHarness(undefined, { folder, reportOffsetHours: async () => offsetHours })
    await harness.service.save(await draftWithFolder(harness, { name: 'First' }))
    await harness.service.save(await draftWithFolder(harness, { name: 'Second', timezone: 'report' }))
    const before = await fs.readFile(path.join(folder, 'schedules.json'), 'utf8')

    offsetHours = 0.01
    const error = await caught(harness.service.save(await draftWithFolder(harness, { name: 'Hostile', timezone: 'report' })))
    expect(error).toBeInstanceOf(AppError)
    expect(error.code).toBe('validation')
    expect(error.message).toMatch(/timezone \(0\.01\).*whole number of hours/)
    expect(error.message).toMatch(/Choose the computer's timezone/)
    // The running app's own list is unchanged too: nothing waits in its cache to be written back.
    expect((await harness.service.list()).schedules.map((schedule) => schedule.name)).toEqual(['First', 'Second'])
    harness.service.stop()

    expect(await fs.readFile(path.join(folder, 'schedules.json'), 'utf8')).toBe(before)
    const notices: Notice[] = []
    const restarted = await createHarness(undefined, {
      folder,
      notices: { add: (notice) => (notices.push({ ...notice, id: 'notice' }), { ...notice, id: 'notice' }) },
    })
    const names = (await restarted.service.list()).schedules.map((schedule) => schedule.name)
    expect(names).toEqual(['First', 'Second'])
    expect(notices).toEqual([])
    expect((await fs.readdir(folder)).filter((name) => name.startsWith('schedules.json'))).toEqual(['schedules.json'])
  })
})
