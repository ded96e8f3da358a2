import { describe, expect, it } from 'vitest'
import { fieldsFromValues, formatValue } from '../../../common/charts/value-format'

describe('fieldsFromValues', () => {
  it('reads a metric whose every value is whole in whole numbers, and any other at two decimals', () => {
    const fields = fieldsFromValues([
      { metric: 'impressions', values: [741_115, null, 12] },
      { metric: 'impressions', values: [3, 4] },
      { metric: 'ctr', values: [1, 0.25] },
      // A metric is whole only if every line of it is.
      { metric: 'revenue', values: [10] },
      { metric: 'revenue', values: [10.5] },
    ])
    expect(fields).toEqual([
      { name: 'impressions', displayType: 'int', precision: 0 },
      { name: 'ctr', displayType: 'float', precision: 2 },
      { name: 'revenue', displayType: 'float', precision: 2 },
    ])
    const impressions = fields[0]
    expect(formatValue(741_115, impressions)).toBe('741,115')
    expect(formatValue(0.256, fields[1])).toBe('0.26')
  })

  it('gives nothing for no series', () => {
    expect(fieldsFromValues([])).toEqual([])
  })
})
