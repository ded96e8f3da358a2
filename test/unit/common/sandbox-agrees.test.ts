import { describe, expect, it } from 'vitest'
import { DEFAULT_ROWS_LIMIT } from '../../../common/definition'
import { TIME_GRANULARITIES } from '../../../common/granularity'
import { REPORT_LIMITS } from '../../../common/limits'
import { LINE_SEPARATOR, TOTAL_LINE } from '../../../common/lines'
import { TIME_GRANULARITIES as SANDBOX_TIME_GRANULARITIES } from '../../../main/sandbox/reporting/dates'
import { AUDIENCE_ROWS_LIMIT as SANDBOX_AUDIENCE_ROWS_LIMIT } from '../../../main/sandbox/reporting/request'
import { LINE_SEPARATOR as SANDBOX_LINE_SEPARATOR, TOTAL_LINE as SANDBOX_TOTAL_LINE } from '../../../main/sandbox/reporting/time-series'

/**
 * The demo backend stands in for the platform, so it keeps its own copies of the platform's
 * rules on purpose (lint keeps it from importing common/). These differential checks keep the
 * copies equal to common/'s, as test/unit/reports/dates.test.ts does for the date resolver.
 */
describe('the demo backend agrees with common/', () => {
  it('on the total line and the separator of several keys', () => {
    expect(SANDBOX_TOTAL_LINE).toBe(TOTAL_LINE)
    expect(SANDBOX_LINE_SEPARATOR).toBe(LINE_SEPARATOR)
  })

  it('on the time keys, finest first', () => {
    expect([...SANDBOX_TIME_GRANULARITIES]).toEqual([...TIME_GRANULARITIES])
  })

  it("on audience_rows_limit's range and default", () => {
    expect({ min: SANDBOX_AUDIENCE_ROWS_LIMIT.min, max: SANDBOX_AUDIENCE_ROWS_LIMIT.max }).toEqual(REPORT_LIMITS.audienceRowsLimit)
    expect(SANDBOX_AUDIENCE_ROWS_LIMIT.default).toBe(DEFAULT_ROWS_LIMIT)
  })
})
