import { describe, expect, it } from 'vitest'
import { osEntryLine } from '../../../../../renderer/src/domain/schedules/osEntryLine'

const none = { kind: null, installed: false, lastRunAt: null, problem: 'This system has no scheduler AdOps Desk can use; schedules run while the app is open.' }
const cron = { kind: 'cron' as const, installed: true, lastRunAt: null, problem: null }

describe("a schedule's OS entry line", () => {
  it('on a system with no scheduler it says there is no OS entry and the app runs it while open, never "has not run it"', () => {
    const line = osEntryLine(none, null)
    expect(line).not.toMatch(/has not run it/)
    expect(line).toBe('No OS entry on this system: the app runs it while it is open.')
  })

  it('with a scheduler it says whether the entry has run it, and when', () => {
    expect(osEntryLine(cron, null)).toBe('OS entry: has not run it yet')
    expect(osEntryLine({ ...cron, installed: false }, null)).toBe('OS entry: not installed; the app runs it while it is open.')
    expect(osEntryLine(cron, '2026-02-05T09:00:00.000Z')).toMatch(/^OS entry: last ran it /)
  })

  it('says nothing before the entry state is known', () => {
    expect(osEntryLine(null, null)).toBeNull()
  })
})
