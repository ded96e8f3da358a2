import { describe, expect, it } from 'vitest'
import type { LedgerEntry } from '@contract'
import { runNowNotice } from '../../../../../renderer/src/domain/schedules/runNowNotice'

const entry = (outcome: LedgerEntry['outcome'], alertsFired: number | null, error: string | null = null) =>
  ({ outcome, alertsFired, error }) as Pick<LedgerEntry, 'outcome' | 'alertsFired' | 'error'>

describe('what Run now says', () => {
  it('tells how many alerts fired, and offers Alerts', () => {
    expect(runNowNotice('Daily', entry('ok', 2))).toEqual({ type: 'success', text: '"Daily" ran: 2 alerts fired.', alertsFired: 2 })
    expect(runNowNotice('Daily', entry('ok', 1))).toMatchObject({ text: '"Daily" ran: 1 alert fired.', alertsFired: 1 })
  })

  it('says nothing of alerts when none fired or none were checked', () => {
    expect(runNowNotice('Daily', entry('ok', 0))).toEqual({ type: 'success', text: '"Daily" ran.', alertsFired: 0 })
    expect(runNowNotice('Daily', entry('ok', null))).toEqual({ type: 'success', text: '"Daily" ran.', alertsFired: 0 })
  })

  it('a failed or skipped run says so', () => {
    expect(runNowNotice('Daily', entry('failed', null, 'Nothing answers at 127.0.0.1:9.'))).toMatchObject({
      type: 'error',
      text: '"Daily" failed: Nothing answers at 127.0.0.1:9.',
    })
    expect(runNowNotice('Daily', entry('skipped', null)).text).toMatch(/already running/)
  })
})
