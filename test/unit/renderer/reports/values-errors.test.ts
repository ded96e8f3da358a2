import { describe, expect, it } from 'vitest'
import { isList, mergeValues, splitPastedList } from '../../../../renderer/src/domain/reports/values'
import { builderField, errorField } from '../../../../renderer/src/domain/reports/errors'
import { positionOf, rowsAt, ROWS_STEPS } from '../../../../renderer/src/domain/reports/precision'
import { escapeTsv, seriesTsv } from '../../../../renderer/src/domain/reports/tsv'
import { peakCategory } from '../../../../common/charts/series'
import { result } from './fixtures'

describe('pasted filter values', () => {
  it('splits a column by lines, a single line by commas, trimming and dropping blanks and repeats', () => {
    expect(splitPastedList('FR\nDE\r\n\nFR\n  US  \n')).toEqual(['FR', 'DE', 'US'])
    expect(splitPastedList('FR, DE,,US')).toEqual(['FR', 'DE', 'US'])
    expect(splitPastedList('a,b\nc')).toEqual(['a,b', 'c'])
    expect(isList('FR')).toBe(false)
    expect(isList('FR\n')).toBe(false)
    expect(isList('FR,DE')).toBe(true)
    expect(mergeValues(['FR'], ['DE', 'FR'])).toEqual(['FR', 'DE'])
  })
})

describe('error fields', () => {
  it('maps definition paths, platform parameters and resolver inputs to builder fields', () => {
    expect(builderField('dates.start')).toBe('dates.start')
    expect(builderField('definition.filters.0.values')).toBe('filters')
    expect(builderField('chart_lines[3]')).toBe('lines')
    expect(builderField('start_date')).toBe('dates.start')
    expect(builderField('end')).toBe('dates.end')
    expect(builderField('audience.rowsLimit')).toBe('audience.rowsLimit')
    expect(builderField('audience_rows_limit')).toBe('audience.rowsLimit')
    expect(builderField('slicer_name')).toBe('report')
    expect(builderField('nonsense')).toBeNull()
  })

  it('reads details.field first, then the first known issue path', () => {
    expect(errorField({ field: 'split_by[0]' })).toBe('breakdown')
    expect(
      errorField({
        issues: [
          { path: 'profileId', message: 'x' },
          { path: 'definition.metrics', message: 'Pick a metric' },
        ],
      }),
    ).toBe('metrics')
    expect(errorField({ field: 'dates', part: 'end' })).toBe('dates.end')
    expect(errorField({ field: 'dates' })).toBe('dates.start')
    expect(errorField({ field: 'audience', reason: 'Invalid parameter audience_rows_limit: must be at most 10000000' })).toBe('audience.rowsLimit')
    expect(errorField({ field: 'audience', reason: 'unknown audience_key' })).toBe('audience.source')
    expect(errorField({ field: 'audience' })).toBeNull()
    expect(errorField({ reason: 'no field' })).toBeNull()
    expect(errorField(undefined)).toBeNull()
  })
})

describe('audience precision', () => {
  it('steps 10,000 to 10,000,000 on a 1-2-5 scale and finds the nearest step', () => {
    expect(rowsAt(0)).toBe(10_000)
    expect(rowsAt(ROWS_STEPS.length - 1)).toBe(10_000_000)
    expect(rowsAt(99)).toBe(10_000_000)
    expect(positionOf(1_000_000)).toBe(ROWS_STEPS.indexOf(1_000_000))
    expect(rowsAt(positionOf(1_300_000))).toBe(1_000_000)
    expect(rowsAt(positionOf(4_000_000))).toBe(5_000_000)
  })
})

describe('series TSV', () => {
  it('has raw numbers, blanks for missing ones, and escaped text', () => {
    expect(escapeTsv('a\tb\nc\\')).toBe('a\\tb\\nc\\\\')
    const lines = seriesTsv(result.series.slice(0, 2), true).split('\n')
    expect(lines[0]).toBe('Series\tMetric\tTotal\tAverage\tMin\tMax\tChange %')
    expect(lines[1]).toBe('France\timpressions\t40\t20\t10\t30\t')
    expect(lines[2]).toBe('Germany <b>\timpressions\t180\t60\t50\t70\t')
    expect(lines[3]).toBe('')
  })

  it('names where each line peaks on a category chart, in the table’s TSV too', () => {
    const byPublisher = { ...result, granularity: 'publisher', categories: ['17', '42', '7'], categoryLabels: { '17': 'Daily Planet', '42': 'Gazette' } }
    const [france, germany] = byPublisher.series
    expect(peakCategory(byPublisher, france!)).toBe('7')
    expect(peakCategory(byPublisher, germany!)).toBe('7')
    expect(peakCategory(byPublisher, { values: [5, 9, 1] })).toBe('Gazette')
    expect(peakCategory(byPublisher, { values: [null, null, null] })).toBeNull()
    // A time axis, or a reduced one (a point stands for a bucket of categories), has no single peak category.
    expect(peakCategory(result, germany!)).toBeNull()
    expect(peakCategory({ ...byPublisher, reduced: true }, germany!)).toBeNull()
    const lines = seriesTsv([{ ...france!, values: [9, 1, null] }], false, (series) => peakCategory(byPublisher, series)).split('\n')
    expect(lines[0]).toBe('Series\tMetric\tTotal\tAverage\tMin\tMax\tHighest at')
    expect(lines[1]).toBe('France\timpressions\t40\t20\t10\t30\tDaily Planet')
  })
})
