import { describe, expect, it } from 'vitest'
import { cadenceInWords, previewCron } from '../../../../../renderer/src/domain/schedules/cadence'

describe('cadence in words', () => {
  it('says each kind of cadence as a sentence with its timezone', () => {
    expect(cadenceInWords({ kind: 'daily', at: '07:30' }, 'report')).toBe("Every day at 07:30, report's timezone")
    expect(cadenceInWords({ kind: 'weekdays', days: ['wed', 'mon'], at: '06:00' }, 'computer')).toBe("Mon, Wed at 06:00, this computer's timezone")
    expect(cadenceInWords({ kind: 'monthly', day: 1, at: '09:00' }, 'report')).toBe("The 1st of every month at 09:00, report's timezone")
    expect(cadenceInWords({ kind: 'monthly', day: 'last', at: '23:00' }, 'report')).toBe("The last day of every month at 23:00, report's timezone")
    expect(cadenceInWords({ kind: 'cron', expression: ' 0 */6 * * * ' }, 'computer')).toBe('Cron "0 */6 * * *", this computer\'s timezone')
  })

  it('names the working week, weekends and the whole week rather than listing days', () => {
    expect(cadenceInWords({ kind: 'weekdays', days: ['fri', 'thu', 'wed', 'tue', 'mon'], at: '07:00' }, 'report')).toMatch(/^Monday to Friday at 07:00/)
    expect(cadenceInWords({ kind: 'weekdays', days: ['sun', 'sat'], at: '07:00' }, 'report')).toMatch(/^Weekends at/)
    expect(cadenceInWords({ kind: 'weekdays', days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], at: '07:00' }, 'report')).toMatch(/^Every day at/)
  })

  it('writes ordinals as English does (11th, 12th, 13th, 21st, 22nd, 23rd)', () => {
    const day = (value: number) => cadenceInWords({ kind: 'monthly', day: value, at: '00:00' }, 'report').split(' ')[1]
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 31].map(day)).toEqual(['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '23rd', '31st'])
  })
})

describe('cron preview', () => {
  const from = new Date('2026-11-26T00:00:00Z')

  it('lists the next runs in the given offset', () => {
    const preview = previewCron('30 7 * * 1-5', from, 3, 60)
    expect(preview).toEqual({ ok: true, runs: [new Date('2026-11-26T06:30:00Z'), new Date('2026-11-27T06:30:00Z'), new Date('2026-11-30T06:30:00Z')] })
  })

  it('says an expression that never fires, one that cannot be read, and an empty one as sentences', () => {
    const never = previewCron('0 0 31 2 *', from)
    expect(never.ok).toBe(false)
    expect(!never.ok && never.error).toMatch(/never fires/)
    const unreadable = previewCron('every morning', from)
    expect(!unreadable.ok && unreadable.error).toMatch(/cannot be read.*five fields/)
    expect(previewCron('  ', from).ok).toBe(false)
  })
})
