import { Readable } from 'node:stream'
import type { ServerResponse } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createConnection } from '../../../main/services/connection/connection'
import type { HttpClient } from '../../../main/services/http/client'
import type { ReportingClient } from '../../../main/services/reporting/client'
import { parseDay } from '../../../main/services/reports/dates'
import { RANKING_LIMITS, topCombinations } from '../../../main/services/reports/ranking'
import type { ReportScope } from '../../../main/services/reports/scope'
import { caught } from '../clients/support/outcomes'
import { demoCredentials, fastHttp } from '../clients/support/sandbox'
import { startTinyServer, type TinyHandler } from '../clients/support/tiny-server'

/**
 * "Top N" over several keys reads the head of an export into memory. A hostile or broken server
 * answering that export must cost a bounded read and a bounded wait, not main's memory.
 */
const CHUNK = Buffer.alloc(64 * 1024, 'x'.charCodeAt(0))
/** How much a hostile server offers at most: far past every bound, so an unbounded reader is caught. */
const OFFERED = 24 * 1024 * 1024

let answer: TinyHandler = (_request, response) => response.end()
let tiny: Awaited<ReturnType<typeof startTinyServer>>
let http: HttpClient
let reporting: ReportingClient
/** Bytes the reader took from the export's body, counted as they leave the client. */
let pulled = 0

const day = (text: string) => parseDay(text) as number
const scope: ReportScope = {
  target: { project_name: 'demo', slicer_name: 'supply' },
  days: { start: day('2026-01-01'), end: day('2026-01-07') },
  range: { start: '2026-01-01', end: '2026-01-07', timezone: 0, days: 7 },
  offset: 0,
  sendTimezone: false,
  filters: [],
  filterTemplate: null,
  dataFilters: [],
  dataFilterTemplate: null,
  notes: [],
}

beforeAll(async () => {
  tiny = await startTinyServer((request, response, body) => answer(request, response, body))
  http = fastHttp({ retry: { maxRetries: 0 } })
  const connection = createConnection({
    settings: { baseUrl: `${tiny.url}/wf`, authUrl: `${tiny.url}/auth`, reportUrl: `${tiny.url}/rep`, serviceId: 'demo', reportServiceId: null },
    credentials: async () => demoCredentials,
    http,
  })
  const real = connection.reporting
  reporting = {
    ...real,
    async export(request, options) {
      const download = await real.export(request, options)
      async function* counted(): AsyncGenerator<Buffer> {
        for await (const chunk of download.body as AsyncIterable<Buffer>) {
          pulled += chunk.length
          yield chunk
        }
      }
      const body = Readable.from(counted(), { objectMode: false })
      body.once('close', () => download.body.destroy())
      return { ...download, body }
    },
  }
})
afterAll(async () => {
  await http.close()
  await tiny.close()
})

/** A server that sends `head`, then `filler` with back-pressure until the client hangs up or OFFERED is reached. */
function hostile(head: string, filler: Buffer, served: { bytes: number; hungUp: boolean }): TinyHandler {
  return (_request, response: ServerResponse) => {
    response.writeHead(200, { 'content-type': 'text/csv' })
    response.write(head)
    response.once('close', () => {
      served.hungUp = served.bytes < OFFERED
    })
    const pump = () => {
      while (served.bytes < OFFERED && !response.destroyed) {
        served.bytes += filler.length
        if (!response.write(filler)) {
          response.once('drain', pump)
          return
        }
      }
      if (!response.destroyed) response.end()
    }
    pump()
  }
}

describe('the ranking export is read within bounds', () => {
  it('a field that opens a quote and never closes it stops the read at the cell bound with a clear sentence', async () => {
    const served = { bytes: 0, hungUp: false }
    pulled = 0
    answer = hostile('country,device_type,impressions\r\n"', CHUNK, served)
    const error = await caught(topCombinations(reporting, scope, ['country', 'device_type'], 'impressions', 5, new AbortController().signal))
    expect(error.code).toBe('bad_response')
    expect(error.message).toMatch(/ranking export held a value longer than 65,536 characters.*Pick the lines by hand/)
    // The reader stopped near the cell bound, not at the end of what the server offered.
    expect(pulled).toBeLessThanOrEqual(RANKING_LIMITS.read.maxCellChars + 2 * CHUNK.length)
    await expect.poll(() => served.hungUp).toBe(true)
  })

  it('an answer that never brings the rows (endless blank lines) stops at the byte bound', async () => {
    const served = { bytes: 0, hungUp: false }
    pulled = 0
    answer = hostile('country,device_type,impressions\r\n', Buffer.alloc(64 * 1024, '\n'.charCodeAt(0)), served)
    const error = await caught(topCombinations(reporting, scope, ['country', 'device_type'], 'impressions', 5, new AbortController().signal))
    expect(error.code).toBe('bad_response')
    expect(error.message).toMatch(/ranking export sent more than 4.0 MB without the rows asked for/)
    expect(pulled).toBeLessThanOrEqual(RANKING_LIMITS.read.maxBytes + CHUNK.length)
    await expect.poll(() => served.hungUp).toBe(true)
  })

  it('a server that trickles for ever hits the deadline', async () => {
    let timer: NodeJS.Timeout | undefined
    let trickled = 0
    answer = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/csv' })
      response.write('country,device_type,impressions\r\n"')
      // A byte now and then, well inside the idle timeout, for far longer than the test may take.
      timer = setInterval(() => {
        trickled++
        if (response.destroyed || trickled > 20_000) {
          clearInterval(timer)
          response.end()
        } else response.write('x')
      }, 5)
    }
    const limits = { ...RANKING_LIMITS, deadlineMs: 150 }
    try {
      const error = await caught(topCombinations(reporting, scope, ['country', 'device_type'], 'impressions', 5, new AbortController().signal, limits))
      expect(error.code).toBe('timeout')
      expect(error.message).toMatch(/ranking export for the top lines did not arrive within 150 ms/)
    } finally {
      clearInterval(timer)
    }
  })

  it('a well-formed export still gives its top combinations', async () => {
    answer = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/csv' })
      response.end('country,device_type,impressions\r\nDE,mobile,30\r\n"F, R",desktop,20\r\nUS,tablet,10\r\n')
    }
    expect(await topCombinations(reporting, scope, ['country', 'device_type'], 'impressions', 2, new AbortController().signal)).toEqual([
      'DE\u0002mobile',
      'F, R\u0002desktop',
    ])
  })
})
