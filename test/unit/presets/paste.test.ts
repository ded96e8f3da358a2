import { describe, expect, it } from 'vitest'
import type { ReportDefinition } from '@contract'
import { AppError } from '../../../main/services/errors'
import { filterMatchOf, parsePastedRequest } from '../../../main/services/presets/paste'
import { parseRelaxedJson, Variable } from '../../../main/services/presets/relaxed-json'
import { sampleDefinition } from '../../support/channel-samples'

/** The builder's state a paste lands on: chart options and comparison must survive it. */
const base: ReportDefinition = {
  ...sampleDefinition,
  chart: { type: 'bar', hidden: ['x|y'], showMarkers: false },
  comparison: 'previous_year',
  audience: { source: 'users', rowsLimit: 500_000, breakdown: ['country'] },
}

function failure(run: () => unknown): AppError {
  try {
    run()
  } catch (error) {
    if (error instanceof AppError) return error
    throw error
  }
  throw new Error('expected a failure')
}

describe('paste a time_series request body', () => {
  // The shape of the vendor's public script (Python literals, token as a variable), made a time series.
  const script = `time_series = {
    "slicer_name": "client",
    "project_name": "bc-sparta",
    "timezone": 1,
    "token": token,
    "limit": 400,
    "split_by": ["bid_context_wrapper.demand.campaign_id"],
    "start_date": "2019-10-23",
    "end_date": "2019-10-28",
    "granularity": "year",
    "chart_lines": ["3", "__total__"],
    "filters": [
        {
            "name": "bid_context_wrapper.demand.campaign_id",
            "value": ["3"],
            "match": "equals",
        }
    ],
    "data_field": "imps",
}`

  it("reads every field of the script into the definition and keeps the builder's chart options", () => {
    const { definition, unread } = parsePastedRequest(script, base)
    expect(unread).toEqual([])
    expect(definition).toEqual({
      ...base,
      project: 'bc-sparta',
      report: 'client',
      dates: { start: '2019-10-23', end: '2019-10-28' },
      timezone: { mode: 'fixed', offset: 1 },
      metrics: ['imps'],
      granularity: 'granularity_year',
      categoryLimit: 400,
      breakdown: ['bid_context_wrapper.demand.campaign_id'],
      lines: { mode: 'pick', values: ['3'], includeTotal: true },
      filters: [{ key: 'bid_context_wrapper.demand.campaign_id', match: 'equals', values: ['3'], caseInsensitive: false, searchNames: false }],
      filterLogic: '',
      metricConditions: [],
      metricConditionLogic: '',
      sort: [],
    })
  })

  it("joins several keys' values with U+0002, reads vendor match spellings, flags spelled every way, data filters and order_by", () => {
    const body = JSON.stringify({
      project_name: 'demo',
      slicer_name: 'supply',
      start_date: '-1m_first',
      end_date: '-1m_last',
      granularity: 'granularity_day',
      split_by: ['country', 'device_type'],
      chart_lines: ['DE\u0002mobile', 'FR\u0002desktop', '__total__'],
      data_field: 'revenue',
      filters: [
        { name: 'publisher', match: 'not beginswith', value: ['test', 'qa'], case_insensitive: true, search_mappings: 1 },
        { name: 'domain', match: 'endswith', value: '.de', case_insensitive: '1' },
        { name: 'country', match: 'NOT_EQUALS', value: ['US'] },
      ],
      filter_template: '1 and (2 or 3)',
      data_filters: [
        { name: 'imps', value: '1', match: '>=' },
        { name: 'clicks', operator: 'gt', value: 0 },
      ],
      data_filter_template: '1 or 2',
      order_by: [
        { name: 'revenue', direction: 'desc', mapping: 0 },
        { name: 'country', direction: 'Asc', mapping: 1 },
      ],
    })
    const { definition, unread } = parsePastedRequest(body, base)
    expect(unread).toEqual([])
    expect(definition.lines).toEqual({ mode: 'pick', values: ['DE\u0002mobile', 'FR\u0002desktop'], includeTotal: true })
    expect(definition.filters).toEqual([
      { key: 'publisher', match: 'not begins with', values: ['test', 'qa'], caseInsensitive: true, searchNames: true },
      { key: 'domain', match: 'ends with', values: ['.de'], caseInsensitive: true, searchNames: false },
      { key: 'country', match: 'not equals', values: ['US'], caseInsensitive: false, searchNames: false },
    ])
    expect(definition.filterLogic).toBe('1 and (2 or 3)')
    expect(definition.metricConditions).toEqual([
      { metric: 'imps', match: '>=', value: '1' },
      { metric: 'clicks', match: '>', value: '0' },
    ])
    expect(definition.metricConditionLogic).toBe('1 or 2')
    expect(definition.sort).toEqual([
      { field: 'revenue', direction: 'DESC', byName: false },
      { field: 'country', direction: 'ASC', byName: true },
    ])
    expect(definition.dates).toEqual({ start: '-1m_first', end: '-1m_last' })
    expect(definition.timezone).toEqual({ mode: 'report' })
  })

  it('takes a single order_by object, a split_by string, a short granularity and no chart_lines as top N', () => {
    const { definition, unread } = parsePastedRequest(
      '{"project_name":"demo","slicer_name":"supply","start_date":"yesterday","end_date":"yesterday","granularity":"hour","split_by":"country","data_field":"impressions","order_by":{"name":"impressions","direction":"DESC"}}',
    )
    expect(unread).toEqual([])
    expect(definition.granularity).toBe('granularity_hour')
    expect(definition.breakdown).toEqual(['country'])
    expect(definition.lines).toEqual({ mode: 'top', count: 10, by: null, includeTotal: true })
    expect(definition.sort).toEqual([{ field: 'impressions', direction: 'DESC', byName: false }])
    // Without a base, what a request cannot say takes the builder's defaults.
    expect(definition.chart).toEqual({ type: 'line', hidden: [], showMarkers: true })
    expect(definition.comparison).toBe('none')
  })

  it('names every field it could not read, and never keeps the token', () => {
    const body = {
      project_name: 'demo',
      slicer_name: 'supply',
      token: 'abc.def.secret',
      start_date: '-7d',
      end_date: 'yesterday',
      timezone: 14,
      data_field: 'impressions',
      split_by: ['country'],
      chart_lines: ['DE\u0002mobile', 'FR'],
      filters: [
        { name: 'country', match: 'like', value: ['D%'] },
        { name: 'device_type', value: ['mobile'] },
        { name: 'publisher', match: 'equals', value: [] },
      ],
      data_filters: [{ name: 'imps', match: '~', value: '1' }],
      order_by: { name: 'impressions', direction: 'upwards' },
      data_field_options: [{ name: 'impressions', options: {} }],
      sampling: 0.1,
      limit: 20_000,
    }
    const { definition, unread } = parsePastedRequest(JSON.stringify(body), base)
    expect(JSON.stringify(definition)).not.toContain('secret')
    expect(unread).toEqual([
      'timezone could not be read: 14 is not a whole number from -12 to 12.',
      'limit could not be read: 20000 is not a whole number from 1 to 10000.',
      'Filter on country was left out: the match "like" is not one AdOps Desk knows (equals, not equals, contains, not contains, begins with, ends with, not begins with, not ends with).',
      'Filter on device_type was left out: it has no "match".',
      'Filter on publisher was left out: it has no value.',
      'The data filter on imps was left out: the match "~" is not one of > >= < <= = !=.',
      'order_by direction could not be read: "upwards" is neither ASC nor DESC; ASC was taken.',
      'data_field_options was not read: the builder has no per-metric options.',
      'sampling was not read: it is not a field of a time series request AdOps Desk knows.',
      'The chart line "DE / mobile" has 2 values but the breakdown has 1 key; it was left out.',
    ])
    // The timezone it could not read falls back to the builder's.
    expect(definition.timezone).toEqual(base.timezone)
    expect(definition.lines).toEqual({ mode: 'pick', values: ['FR'], includeTotal: false })
  })

  it('keeps at most 50 picked lines and says so', () => {
    const lines = Array.from({ length: 60 }, (_, index) => `v${index}`)
    const { definition, unread } = parsePastedRequest(
      JSON.stringify({
        project_name: 'p',
        slicer_name: 's',
        start_date: '-7d',
        end_date: '-1d',
        granularity: 'day',
        split_by: ['k'],
        chart_lines: lines,
        data_field: 'm',
      }),
    )
    expect(definition.lines).toMatchObject({ mode: 'pick', values: lines.slice(0, 50) })
    expect(unread).toEqual(['The request has 60 chart lines; a chart takes 50, so the first 50 were kept.'])
  })

  it('reads a body out of a curl command, whatever the quoting', () => {
    const curl = `curl -X POST 'https://reports.example.com/API/v2/time_series' \\
  -H 'Content-Type: application/json' -H 'Authorization: Bearer <ACCESS_TOKEN>' \\
  --data-raw '{"project_name":"demo","slicer_name":"supply","start_date":"-7d","end_date":"yesterday","granularity":"day","split_by":[],"chart_lines":["__total__"],"data_field":"impressions","filters":[{"name":"publisher","match":"equals","value":["O'\\''Brien"]}],"token":"<ACCESS_TOKEN>"}'`
    const { definition, unread } = parsePastedRequest(curl)
    expect(unread).toEqual([])
    expect(definition.filters[0]?.values).toEqual(["O'Brien"])
    expect(definition.metrics).toEqual(['impressions'])
  })
})

describe('paste an audience or export body', () => {
  it("reads the docs' audience example into the audience settings and leaves the chart as it was", () => {
    const audience = `audience = {
        "slicer_name": "client",
        "project_name": "bc-sparta",
        "token": token,
        "split_by": "bid_context_wrapper.user.agent.browser.name",
        "start_date": "2019-10-15",
        "end_date": "2019-10-28",
        "filters": [{"name": "bid_context_wrapper.demand.advertiser_id", "value": ["3"], "match": "equals"}],
        "audience_key": "users",
        "audience_rows_limit": 2000000
    }`
    const { definition, unread } = parsePastedRequest(audience, base)
    expect(unread).toEqual([])
    expect(definition.audience).toEqual({ source: 'users', rowsLimit: 2_000_000, breakdown: ['bid_context_wrapper.user.agent.browser.name'] })
    expect(definition.metrics).toEqual(base.metrics)
    expect(definition.breakdown).toEqual(base.breakdown)
    expect(definition.filters).toEqual([
      { key: 'bid_context_wrapper.demand.advertiser_id', match: 'equals', values: ['3'], caseInsensitive: false, searchNames: false },
    ])
    expect(definition.project).toBe('bc-sparta')
  })

  it('an audience body with nothing to keep for the chart metric is refused with a sentence', () => {
    const error = failure(() => parsePastedRequest('{"project_name":"p","slicer_name":"s","start_date":"-7d","end_date":"-1d","split_by":["k"]}'))
    expect(error.code).toBe('validation')
    expect(error.message).toMatch(/names no metric for the chart/)
  })

  it("turns an export (the vendor's Apps Script) into a chart: the finest time key is the x-axis", () => {
    const script = `var apiParams = {
      'slicer_name' : 'traffic',
      'project_name': 'bidswitch',
      'token': apiToken,
      'split_by': ['granularity_quarter','granularity_month',  'dsp_id', 'ssp' ],
      'include_mappings': 1,
      'start_date': '2019-01-01',
      'end_date': '2019-09-30',
      'data_fields': ['all_ssp_bid_requests','dsp_bid_requests'],
      'export_format' : 'csv',
      'filters' : [{"name" : "dsp_id","value": ['16'],"match" : "equals"}, {"name" :"inventory_type", "value": ['application'], "match" : "equals"}],
      'data_filters' : [{"name": "dsp_bid_requests", "value": "0", "match": ">"}]
    };`
    const { definition, unread } = parsePastedRequest(script, base)
    expect(unread).toEqual(['split_by has several time keys (granularity_quarter, granularity_month); the chart uses the finest, granularity_month.'])
    expect(definition.granularity).toBe('granularity_month')
    expect(definition.breakdown).toEqual(['dsp_id', 'ssp'])
    expect(definition.metrics).toEqual(['all_ssp_bid_requests', 'dsp_bid_requests'])
    expect(definition.metricConditions).toEqual([{ metric: 'dsp_bid_requests', match: '>', value: '0' }])
    expect(definition.filters.map((filter) => filter.key)).toEqual(['dsp_id', 'inventory_type'])
  })

  it('an export without a time key charts its first key as categories', () => {
    const { definition } = parsePastedRequest(
      '{"project_name":"p","slicer_name":"s","split_by":"campaign_id","start_date":"-7d","end_date":"-1d","data_fields":["imps"],"export_format":"csv","order_by":{"name":"imps","direction":"DESC"}}',
    )
    expect(definition.granularity).toBe('campaign_id')
    expect(definition.breakdown).toEqual([])
    expect(definition.sort).toEqual([{ field: 'imps', direction: 'DESC', byName: false }])
  })
})

describe('paste a web-UI link', () => {
  // As the vendor's url_to_api examples show them.
  const drill =
    'https://uslicer.iponweb.com/bidswitch/UI/Reports/Traffic?category=dsp_id&chart_column=all_ssp_bid_requests&start_date=-3d&end_date=-1d&tzo=-3&granularity=granularity_day&normalization=value&id_list=total&order_by=dsp_final_price_adj_usd&order_direction=DESC&parent_key=granularity_day&parent_key=ssp&parent_match=equals&parent_match=equals&parent_value=2019-10-27&parent_value=emxdigital&show=dsp_no_bids%2Cdsp_final_price_adj_usd%2Cimps&field_order=timeout_pct%2Cdsp_bid_requests&version=23.11.2'

  it('reads the path, dates, timezone, lines, sort and the drill-down stack', () => {
    const { definition, unread } = parsePastedRequest(drill, base)
    expect(definition.project).toBe('bidswitch')
    expect(definition.report).toBe('Traffic')
    expect(definition.metrics).toEqual(['all_ssp_bid_requests'])
    expect(definition.timezone).toEqual({ mode: 'fixed', offset: -3 })
    expect(definition.granularity).toBe('granularity_day')
    expect(definition.breakdown).toEqual(['dsp_id'])
    expect(definition.lines).toEqual({ mode: 'pick', values: [], includeTotal: true })
    expect(definition.sort).toEqual([{ field: 'dsp_final_price_adj_usd', direction: 'DESC', byName: false }])
    // A drill into a day narrows the dates to that day; a drill into a key is an equals filter.
    expect(definition.dates).toEqual({ start: '2019-10-27', end: '2019-10-27' })
    expect(definition.filters).toEqual([{ key: 'ssp', match: 'equals', values: ['emxdigital'], caseInsensitive: false, searchNames: false }])
    expect(definition.chart).toEqual(base.chart)
    expect(unread).toEqual([
      "show (the web UI's table columns dsp_no_bids, dsp_final_price_adj_usd, imps) was not read: the chart keeps chart_column only; add them as metrics if you want them charted.",
      'normalization (value) was not read: the builder charts the values as they are.',
    ])
  })

  it('two drill steps on keys become two equals filters; picked ids and total become lines', () => {
    const url =
      'https://uslicer.iponweb.com/bc-sparta/UI/Reports/Traffic?category=bid_context_wrapper.user.agent.device.type&chart_column=bids&start_date=2019-10-16&end_date=2019-10-29&granularity=granularity_hour&id_list=phone%2Ctablet%2Ctotal&order_by=win_bid_amount&order_direction=ASC&parent_key=bid_context_wrapper.demand.advertiser_id&parent_key=bid_context_wrapper.user.agent.os.version&parent_match=equals&parent_match=equals&parent_value=3&parent_value=Windows_10'
    const { definition, unread } = parsePastedRequest(url)
    expect(unread).toEqual([])
    expect(definition.dates).toEqual({ start: '2019-10-16', end: '2019-10-29' })
    expect(definition.timezone).toEqual({ mode: 'report' })
    expect(definition.granularity).toBe('granularity_hour')
    expect(definition.lines).toEqual({ mode: 'pick', values: ['phone', 'tablet'], includeTotal: true })
    expect(definition.filters.map((filter) => [filter.key, filter.values[0]])).toEqual([
      ['bid_context_wrapper.demand.advertiser_id', '3'],
      ['bid_context_wrapper.user.agent.os.version', 'Windows_10'],
    ])
    expect(definition.sort).toEqual([{ field: 'win_bid_amount', direction: 'ASC', byName: false }])
  })

  it("a month drill becomes that month's dates; show stands in for a missing chart_column", () => {
    const url =
      'https://ui.example.com/demo/UI/Reports/supply?start_date=-90d&end_date=yesterday&parent_key=granularity_month&parent_value=2024-02&show=impressions,revenue&lang=en'
    const { definition, unread } = parsePastedRequest(url, base)
    expect(definition.dates).toEqual({ start: '2024-02-01', end: '2024-02-29' })
    expect(definition.metrics).toEqual(['impressions', 'revenue'])
    expect(definition.breakdown).toEqual([])
    expect(unread).toEqual(['lang in the link was not read: it is not a parameter AdOps Desk knows.'])
  })

  it("a link that is not a report keeps the builder's project and report and says so", () => {
    const { definition, unread } = parsePastedRequest('https://ui.example.com/somewhere/else?chart_column=imps&start_date=-7d&end_date=-1d', base)
    expect(definition.project).toBe(base.project)
    expect(unread).toContain("The link's path is not /{project}/UI/Reports/{report}, so the project and report could not be read from it.")
    expect(unread).toContain("The paste has no project (project_name); the builder's project was kept.")
  })

  it('a drill step without a value, or on a date it cannot read, is named', () => {
    const url =
      'https://ui.example.com/demo/UI/Reports/supply?chart_column=imps&start_date=-7d&end_date=-1d&parent_key=country&parent_key=granularity_week&parent_key=device&parent_value=DE&parent_value=2024-W05'
    const { definition, unread } = parsePastedRequest(url)
    expect(definition.filters).toEqual([{ key: 'country', match: 'equals', values: ['DE'], caseInsensitive: false, searchNames: false }])
    expect(definition.dates).toEqual({ start: '-7d', end: '-1d' })
    expect(unread).toEqual([
      'The drill-down step granularity_week equals 2024-W05 could not be read as dates and was left out.',
      'The drill-down step on device has no parent_value and was left out.',
    ])
  })
})

describe('what cannot be pasted', () => {
  it('text that is neither a request nor a link', () => {
    expect(failure(() => parsePastedRequest('impressions by country last week')).message).toMatch(/Paste a request body/)
  })

  it('broken JSON says where', () => {
    expect(failure(() => parsePastedRequest('{"project_name": "demo",, }')).message).toMatch(/could not be read: .* at line 1, column 25/)
  })

  it('a body without a project and no builder state to keep', () => {
    const error = failure(() => parsePastedRequest('{"slicer_name":"s","start_date":"-7d","end_date":"-1d","data_field":"m"}'))
    expect(error.code).toBe('validation')
    expect(error.message).toMatch(/names no project \(project_name\)/)
  })
})

describe('the pieces', () => {
  it('knows every spelling of a filter match', () => {
    expect(filterMatchOf('beginswith')).toBe('begins with')
    expect(filterMatchOf('not beginswith')).toBe('not begins with')
    expect(filterMatchOf('Not Ends With')).toBe('not ends with')
    expect(filterMatchOf('not_contains')).toBe('not contains')
    expect(filterMatchOf('starts_with')).toBe('begins with')
    expect(filterMatchOf('!=')).toBe('not equals')
    expect(filterMatchOf('regex')).toBeNull()
  })

  it('relaxed JSON reads Python and JavaScript literals, comments and escapes', () => {
    const value = parseRelaxedJson(`x = {
      # a comment
      'a': True, b: None, "c": [1, -2.5, 'it\\'s',], // another
      "d": "\\u0002", e: apiToken, /* block */ 'f': (1, 2)
    };`)
    expect(value).toEqual({ a: true, b: null, c: [1, -2.5, "it's"], d: '\u0002', e: new Variable('apiToken'), f: [1, 2] })
  })
})
