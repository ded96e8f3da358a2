import { describe, expect, it } from 'vitest'
import { durationInWords, EMPTY_LEDGER_FILTERS, filtersActive, ledgerQuery, runResult, runTimes } from '../../../../../renderer/src/domain/schedules/ledger'

const page = { offset: 0, limit: 100 }

describe('ledger filters', () => {
  it('sends only what narrows the list', () => {
    expect(ledgerQuery(EMPTY_LEDGER_FILTERS, page)).toEqual({ offset: 0, limit: 100 })
    expect(filtersActive(EMPTY_LEDGER_FILTERS)).toBe(false)
    expect(filtersActive({ ...EMPTY_LEDGER_FILTERS, search: '   ' })).toBe(false)
  })

  it('turns each filter into the contract query', () => {
    const filters = { search: ' publishers ', outcome: 'failed', source: 'os', lateOnly: true, scheduleId: 's1' } as const
    expect(ledgerQuery(filters, { offset: 200, limit: 100 })).toEqual({
      search: 'publishers',
      outcome: 'failed',
      source: 'os',
      late: true,
      scheduleId: 's1',
      offset: 200,
      limit: 100,
    })
    expect(filtersActive({ ...EMPTY_LEDGER_FILTERS, lateOnly: true })).toBe(true)
  })
})

describe('a ledger line in words', () => {
  it('shows both times for a late run, one for an on-time run, and says a manual run', () => {
    const late = runTimes({ plannedAt: '2026-11-25T07:30:00Z', startedAt: '2026-11-26T08:02:00Z', late: true })
    expect(late).toMatch(/^Due .+, ran .+ \(late\)$/)
    expect(runTimes({ plannedAt: '2026-11-25T07:30:00Z', startedAt: '2026-11-25T07:30:01Z', late: false })).not.toMatch(/Due|late/)
    expect(runTimes({ plannedAt: null, startedAt: '2026-11-25T07:30:01Z', late: false })).toMatch(/run by hand/)
  })

  it('says durations and results in words', () => {
    expect(durationInWords(420)).toBe('0.4 s')
    expect(durationInWords(12_400)).toBe('12 s')
    expect(durationInWords(185_000)).toBe('3 min 5 s')
    expect(runResult({ fileName: 'a.xlsx', alertsFired: 2, outcome: 'ok' })).toBe('Wrote a.xlsx, 2 alerts fired')
    expect(runResult({ fileName: null, alertsFired: 0, outcome: 'ok' })).toBe('No alert fired')
    expect(runResult({ fileName: null, alertsFired: null, outcome: 'skipped' })).toBe('Another run of it was still going')
  })
})
