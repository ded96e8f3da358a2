import { describe, expect, it } from 'vitest'
import { isoDay, patternExample } from '../../../../../renderer/src/domain/schedules/fileName'

const values = { preset: 'Weekly publishers', start: '2026-11-19', end: '2026-11-25', date: '2026-11-26' }

describe('file-name pattern example', () => {
  it('replaces every token and adds the format extension', () => {
    expect(patternExample('{preset} {start} to {end}', values, 'xlsx')).toBe('Weekly publishers 2026-11-19 to 2026-11-25.xlsx')
    expect(patternExample('run {date} ({preset}) {date}', values, 'csv')).toBe('run 2026-11-26 (Weekly publishers) 2026-11-26.csv')
  })

  it('keeps an unknown token as typed and makes a preset name safe for a file name', () => {
    expect(patternExample('{preset} {week}', { ...values, preset: 'EU/US: top' }, 'tsv')).toBe('EU-US- top {week}.tsv')
  })

  it('writes a day in the computer calendar as YYYY-MM-DD', () => {
    expect(isoDay(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05')
  })
})
