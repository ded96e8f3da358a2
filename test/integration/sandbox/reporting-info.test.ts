import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '../../../main/sandbox/index'
import { COMMON, FIRST_DATE, LAST_DATE, report, startAt, tokenFor } from './helpers'

let sandbox: Sandbox
let token: string
let viewer: string

beforeAll(async () => {
  sandbox = await startAt()
  token = await tokenFor(sandbox)
  viewer = await tokenFor(sandbox, 'viewer')
})
afterAll(() => sandbox.close())

interface Info {
  status: string
  timezone: number
  supports_timezone: number
  first_date: string
  last_date: string
  key_fields: Array<{ name: string; type: string; mapping: string | null }>
  data_fields: Array<{ name: string; display_type: string; formula: string | null; access: string | null }>
  audience_sources: Array<{ name: string; description: string; annotation: string }>
}

describe('info', () => {
  it('describes the report: dates, time zone, key and data fields', async () => {
    const result = await report(sandbox, 'info', { ...COMMON, token })
    expect(result.status).toBe(200)
    expect(result.headers['content-type']).toContain('application/json')
    const info = result.json as Info
    expect(info.status).toBe('success')
    expect(info.timezone).toBe(0)
    expect(info.supports_timezone).toBe(1)
    expect(info.first_date).toBe(FIRST_DATE)
    expect(info.last_date).toBe(LAST_DATE)
    expect(info.key_fields.map((field) => field.name)).toEqual([
      'granularity_hour',
      'granularity_day',
      'granularity_week',
      'granularity_month',
      'granularity_quarter',
      'granularity_year',
      'publisher',
      'ad_unit',
      'brand',
      'bidder',
      'country',
      'device_type',
      'deal_type',
      'page_url',
    ])
    expect(info.key_fields.find((field) => field.name === 'publisher')).toMatchObject({ type: 'int', mapping: 'publisher_name' })
    expect(info.data_fields.map((field) => field.name)).toEqual([
      'requests',
      'impressions',
      'clicks',
      'bids',
      'wins',
      'revenue',
      'ecpm',
      'ctr',
      'fill_rate',
      'win_rate',
      'margin',
      'my_margin_estimate',
    ])
    expect(info.data_fields.find((field) => field.name === 'ctr')).toMatchObject({
      display_type: 'percent',
      formula: 'clicks / impressions * 100',
      access: null,
    })
    expect(info.data_fields.find((field) => field.name === 'margin')?.access).toBe('shared')
    expect(info.data_fields.find((field) => field.name === 'my_margin_estimate')?.access).toBe('private')
    expect(info.audience_sources.length).toBeGreaterThan(0)
  })

  it('hides the private custom field from the viewer', async () => {
    const info = (await report(sandbox, 'info', { ...COMMON, token: viewer })).json as Info
    expect(info.data_fields.map((field) => field.name)).toContain('margin')
    expect(info.data_fields.map((field) => field.name)).not.toContain('my_margin_estimate')
  })

  it('answers YAML without Accept: application/json', async () => {
    const result = await report(sandbox, 'info', { ...COMMON, token }, { json: false })
    expect(result.status).toBe(200)
    expect(result.headers['content-type']).toContain('application/x-yaml')
    expect(result.text.startsWith('status: "success"\ntimezone: 0\nsupports_timezone: 1\n')).toBe(true)
    expect(result.text).toContain(`first_date: "${FIRST_DATE}"`)
    expect(result.text).toContain('key_fields:\n  - name: "granularity_hour"\n')
    const failed = await report(sandbox, 'info', { ...COMMON, token: 'wrong' }, { json: false })
    expect(failed.text).toMatch(/^status: "access_error"\nreason: ".+"\n$/)
  })

  it('takes the token from the Authorization header too', async () => {
    const result = await report(sandbox, 'info', COMMON, { headers: { authorization: `Bearer ${token}` } })
    expect((result.json as Info).status).toBe('success')
  })

  it('answers access_error for a wrong or missing token and for projects or reports the user cannot see', async () => {
    const cases: Array<Record<string, unknown>> = [
      { ...COMMON, token: 'wrong' },
      { ...COMMON },
      { ...COMMON, token, project_name: 'other' },
      { ...COMMON, token, slicer_name: 'demand' },
    ]
    for (const body of cases) {
      const result = await report(sandbox, 'info', body)
      expect(result.status, JSON.stringify(body)).toBe(403)
      expect(result.json).toMatchObject({ status: 'access_error' })
      expect(Object.keys(result.json as object).sort()).toEqual(['reason', 'status'])
    }
    expect(((await report(sandbox, 'info', { ...COMMON, token, project_name: 'other' })).json as { reason: string }).reason).toContain('other')
  })

  it('answers bad_request naming a missing common parameter or a broken body', async () => {
    const missing = await report(sandbox, 'info', { project_name: 'demo', token })
    expect(missing.status).toBe(400)
    expect(missing.json).toMatchObject({ status: 'bad_request' })
    expect((missing.json as { reason: string }).reason).toContain('slicer_name')
    const broken = await request(`${sandbox.info.report_url}/API/v2/info`, { method: 'POST', headers: { accept: 'application/json' }, body: '{not json' })
    expect(((await broken.body.json()) as { status: string }).status).toBe('bad_request')
  })

  it('answers 405 to anything but POST and 404 to unknown endpoints', async () => {
    const get = await report(sandbox, 'info', {}, { method: 'GET' })
    expect(get.status).toBe(405)
    expect(get.headers['allow']).toBe('POST')
    expect(get.json).toMatchObject({ status: 'bad_request' })
    const unknown = await report(sandbox, 'funnel', { ...COMMON, token })
    expect(unknown.status).toBe(404)
  })
})
