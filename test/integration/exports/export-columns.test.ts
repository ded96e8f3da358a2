import { promises as fs } from 'node:fs'
import path from 'node:path'
import { strFromU8, unzipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ExportOptions, ReportDefinition } from '@contract'
import { startSandbox, type Sandbox } from '../../../main/sandbox'
import { readXlsxWorkbook } from '../../../main/services/bulk/read-xlsx'
import type { FileDialogs } from '../../../main/services/files/dialogs'
import { sampleDefinition } from '../../support/channel-samples'
import { createMemoryKeychain } from '../../support/memory-keychain'
import { createTestServices, temporaryFolder } from '../../support/services'

/**
 * Issue 39, item 6: a daily chart by publisher, exported from the dialog's defaults, has its date
 * column; its headers read as the screens name them unless the user asks for the API's names;
 * an xlsx file holds its dates as date cells.
 */
const day = (daysAgo: number): string => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10)
const definition: ReportDefinition = {
  ...sampleDefinition,
  dates: { start: day(4), end: day(2) },
  timezone: { mode: 'fixed', offset: 0 },
  metrics: ['impressions'],
  granularity: 'granularity_day',
  breakdown: ['publisher'],
  filters: [],
  filterLogic: '',
  metricConditions: [],
  metricConditionLogic: '',
  sort: [],
}

describe("an export's columns, against the sandbox", () => {
  let sandbox: Sandbox
  let folder: string
  let services: Awaited<ReturnType<typeof createTestServices>>
  let profileId: string

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 })
    folder = await temporaryFolder('adops-export-columns-')
    const dialog: FileDialogs = { chooseSavePath: async (name) => path.join(folder, name), chooseOpenPaths: async () => [] }
    services = await createTestServices({ keychain: createMemoryKeychain(), fileDialogs: dialog })
    const { info } = sandbox
    const profile = await services.profiles.create({
      name: 'Sandbox',
      baseUrl: info.base_url,
      authUrl: info.auth_url,
      reportUrl: info.report_url,
      serviceId: info.service_id,
      auth: { method: 'password', username: info.username, password: info.password },
    })
    profileId = profile.id
  })
  afterAll(async () => {
    await services.close()
    await sandbox.close()
  })

  async function exported(options: ExportOptions): Promise<Buffer> {
    const started = await services.exports.start(profileId, { kind: 'definition', definition }, options)
    if (started === null) throw new Error('the dialog was cancelled')
    const job = await services.exports.whenEnded(started.jobId)
    expect(job).toMatchObject({ state: 'done', error: null })
    const file = path.join(folder, job.fileName)
    const bytes = await fs.readFile(file)
    await fs.rm(file)
    return bytes
  }

  it('the default csv of a daily chart has its date column, headed as the screens say it', async () => {
    const lines = (await exported({ format: 'csv' })).toString('utf8').trimEnd().split(/\r?\n/)
    expect(lines[0]).toBe('Publisher,Publisher name,Day,Impressions')
    expect(lines[1]).toMatch(/^\d+,[^,]+,\d{4}-\d{2}-\d{2},\d+$/)
    // Three days for each publisher.
    expect(new Set(lines.slice(1).map((line) => line.split(',')[2])).size).toBe(3)
  })

  it('with "API column names" the header is the platform’s own, byte for byte', async () => {
    const text = (await exported({ format: 'tsv', apiColumnNames: true })).toString('utf8')
    expect(text.split('\n')[0]).toBe('publisher\tpublisher Name\tgranularity_day\timpressions')
  })

  it('an xlsx file holds its dates as date cells with a date format, and reads back', async () => {
    const bytes = await exported({ format: 'xlsx' })
    const parts = unzipSync(bytes)
    const sheet = strFromU8(parts['xl/worksheets/sheet1.xml'] as Uint8Array)
    const styles = strFromU8(parts['xl/styles.xml'] as Uint8Array)
    expect(sheet).toContain('<t xml:space="preserve">Day</t>')
    expect(sheet).toContain('<t xml:space="preserve">Publisher name</t>')
    expect(sheet).not.toMatch(/>\d{4}-\d{2}-\d{2}</)
    // The header row stays in view as the sheet scrolls.
    expect(sheet).toContain('<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>')
    // The third cell of the second row: Excel's day number, in a style whose format is a date.
    const secondRow = /<row r="2">([\s\S]*?)<\/row>/.exec(sheet)?.[1] ?? ''
    const dateCell = [...secondRow.matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)][2]
    const style = Number(/s="(\d+)"/.exec(dateCell?.[1] ?? '')?.[1])
    const serial = Number(/<v>([\d.]+)<\/v>/.exec(dateCell?.[2] ?? '')?.[1])
    // Excel counts days from 1899-12-30: the export's first day is that many days after it.
    const first = (Date.parse(`${day(4)}T00:00:00Z`) - Date.UTC(1899, 11, 30)) / 86_400_000
    expect(serial).toBeGreaterThanOrEqual(first)
    expect(serial).toBeLessThanOrEqual(first + 2)
    const xf = [...(/<cellXfs[^>]*>([\s\S]*?)<\/cellXfs>/.exec(styles)?.[1] ?? '').matchAll(/<xf\b[^>]*>/g)][style]?.[0] ?? ''
    const formatId = /numFmtId="(\d+)"/.exec(xf)?.[1]
    expect(styles).toContain(`<numFmt numFmtId="${formatId}" formatCode="yyyy-mm-dd"/>`)
    // The app's own reader opens it: the header as the screens say it, a row per publisher and day.
    const table = readXlsxWorkbook(bytes).table
    expect(table.problems).toEqual([])
    expect(table.header).toEqual(['Publisher', 'Publisher name', 'Day', 'Impressions'])
  })
})
