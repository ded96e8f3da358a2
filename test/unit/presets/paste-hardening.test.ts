import { describe, expect, it } from 'vitest'
import { parsePastedRequest } from '../../../main/services/presets/paste'
import { parseRelaxedJson } from '../../../main/services/presets/relaxed-json'
import { sampleDefinition } from '../../support/channel-samples'

describe('a pasted request cannot change what an object is (issue 20: __proto__ in relaxed JSON)', () => {
  it.each([
    ['strict JSON', '{"__proto__": {"polluted": 1}, "a": 1}'],
    ['a Python literal', "{'__proto__': {'polluted': 1}, 'a': 1}"],
    ['an unquoted JavaScript key', '{__proto__: {polluted: 1}, a: 1}'],
  ])('keeps "__proto__" in %s as an own data key, never as the prototype', (_how, text) => {
    const value = parseRelaxedJson(text) as Record<string, unknown>
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
    expect(Object.keys(value)).toEqual(['__proto__', 'a'])
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).toEqual({ polluted: 1 })
    expect('polluted' in value).toBe(false)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('lends no field to the body through "__proto__": a project named only there is not read, and the key is named as unread', () => {
    const { definition, unread } = parsePastedRequest(
      '{"__proto__": {"project_name": "stolen", "slicer_name": "stolen", "data_field": "clicks"}, "project_name": "demo", "slicer_name": "supply", "data_field": "impressions", "start_date": "-7d", "end_date": "yesterday"}',
    )
    expect(definition.project).toBe('demo')
    expect(definition.metrics).toEqual(['impressions'])
    expect(unread).toContain('__proto__ was not read: it is not a field of a time series request AdOps Desk knows.')
  })

  it('a body whose only project is behind "__proto__" has no project', () => {
    const { definition } = parsePastedRequest(
      '{"__proto__": {"project_name": "stolen", "slicer_name": "stolen"}, "data_field": "impressions", "start_date": "-7d", "end_date": "yesterday"}',
      { project: 'mine', report: 'supply' },
    )
    expect(definition.project).toBe('mine')
    expect(definition.report).toBe('supply')
  })
})

describe('a long list in a pasted request (issue 20: a long split_by blocked main for a second)', () => {
  const body = (splitBy: string[]) =>
    JSON.stringify({ project_name: 'demo', slicer_name: 'supply', start_date: '-7d', end_date: 'yesterday', split_by: splitBy, audience_rows_limit: 100_000 })

  it('refuses a list of thousands of names with one sentence instead of reading (and comparing) each', () => {
    const names = Array.from({ length: 30_000 }, (_, index) => `k${index}`)
    const { definition, unread } = parsePastedRequest(body(names), sampleDefinition)
    expect(unread).toEqual(['split_by could not be read: it lists 30,000 names, far more than a report takes.'])
    expect(definition.audience.breakdown).toEqual([])
  })

  it('still drops duplicates from a list of ordinary length, keeping the first order', () => {
    const { definition } = parsePastedRequest(body(['country', 'device_type', 'country', 'site', 'device_type']), sampleDefinition)
    expect(definition.audience.breakdown).toEqual(['country', 'device_type', 'site'])
  })
})
