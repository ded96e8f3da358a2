import { describe, expect, it } from 'vitest'
import type { ReportDefinition } from '@contract'
import { defaultForm, defaultKeys, formProblems, MAX_EXPORT_KEYS, sortWithin, toOptions } from '../../../../renderer/src/domain/exports/options'
import { sampleDefinition } from '../../../support/channel-samples'

const definition = (change: Partial<ReportDefinition> = {}): ReportDefinition => ({ ...sampleDefinition, ...change })

describe('export options', () => {
  it('a category chart’s keys come from its breakdown; otherwise they are main’s choice (null), never a copy of its granularity rule', () => {
    expect(defaultKeys(definition({ breakdown: ['country', 'device_type'], granularity: 'publisher' }))).toEqual(['country', 'device_type'])
    // A time series is exported with its date column, which main resolves (issue 39).
    expect(defaultKeys(definition({ breakdown: ['country'], granularity: 'granularity_day' }))).toBeNull()
    expect(defaultKeys(definition({ breakdown: ['country'], granularity: 'day' }))).toBeNull()
    expect(defaultKeys(definition({ breakdown: [], granularity: 'week' }))).toBeNull()
    expect(defaultKeys(definition({ breakdown: [], granularity: 'auto' }))).toBeNull()
    const form = defaultForm(definition({ breakdown: [], granularity: 'auto', filterLogic: '' }))
    expect(form.keys).toBeNull()
    // Sent without keys, so main splits by the key it chose; no problem to show meanwhile.
    expect(toOptions(form)).not.toHaveProperty('keys')
    expect(formProblems(form, 0)).toEqual({})
  })

  it('starts from the definition: its metrics, its sort where it still applies, its filter logic; names on, no total, the screens’ names', () => {
    const form = defaultForm(
      definition({
        metrics: ['impressions', 'revenue'],
        breakdown: ['country'],
        granularity: 'page_url',
        sort: [
          { field: 'revenue', direction: 'DESC', byName: false },
          { field: 'publisher', direction: 'ASC', byName: true },
        ],
        filterLogic: '1 or 2',
      }),
    )
    expect(form).toEqual({
      format: 'csv',
      dataFields: ['impressions', 'revenue'],
      keys: ['country'],
      includeNames: true,
      includeTotal: false,
      apiColumnNames: false,
      sort: [{ field: 'revenue', direction: 'DESC', byName: false }],
      filterLogic: '1 or 2',
    })
  })

  it('names each problem at its field, the filter logic in the builder’s own words', () => {
    const form = defaultForm(definition({ breakdown: ['country'], granularity: 'publisher', filterLogic: '' }))
    expect(formProblems(form, 0)).toEqual({})
    expect(formProblems({ ...form, dataFields: [] }, 0).dataFields).toBe('Pick at least one data field to export.')
    expect(formProblems({ ...form, keys: [] }, 0).keys).toBe('Pick at least one key to split the export by.')
    const eleven = Array.from({ length: MAX_EXPORT_KEYS + 1 }, (_unused, index) => `key_${index}`)
    expect(formProblems({ ...form, keys: eleven }, 0).keys).toBe('An export is split by at most 10 keys; remove 1.')
    expect(formProblems({ ...form, sort: [{ field: 'device_type', direction: 'ASC', byName: false }] }, 0).sort).toContain('"device_type" is neither')
    expect(formProblems({ ...form, filterLogic: '1 and' }, 2).filterLogic).toBe('The expression ends too early: a filter number or “(” is missing.')
    expect(formProblems({ ...form, filterLogic: '1 and 3' }, 2).filterLogic).toContain('Filter 3 at character 7 does not exist')
    expect(formProblems({ ...form, filterLogic: '1 and 2' }, 2)).toEqual({})
  })

  it('keeps only sort rules over chosen columns, and sends plain copies', () => {
    const rule = { field: 'country', direction: 'ASC' as const, byName: true }
    const kept = sortWithin([rule, { field: 'gone', direction: 'DESC', byName: false }], ['impressions'], ['country'])
    expect(kept).toEqual([rule])
    expect(kept[0]).not.toBe(rule)
    const form = defaultForm(definition({ breakdown: ['country'], granularity: 'publisher' }), 'xlsx')
    const options = toOptions(form)
    expect(options).toEqual({ ...form })
    expect(options.keys).not.toBe(form.keys)
  })
})
