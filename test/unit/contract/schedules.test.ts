import { describe, expect, it } from 'vitest'
import { cadenceSchema, fileNamePatternSchema, scheduleDraftSchema, type ScheduleDraft } from '@contract'

const draft: ScheduleDraft = {
  name: 'Monday revenue file',
  target: { kind: 'preset', name: 'Monday revenue' },
  profileId: 'demo',
  actions: { export: { format: 'xlsx', folderId: 'folder-1', fileNamePattern: '{preset} {start} to {end}' }, checkAlerts: false },
  cadence: { kind: 'daily', at: '07:30' },
  timezone: 'computer',
  enabled: true,
}

const firstMessage = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) => result.error?.issues[0]?.message

describe('the schedule contract', () => {
  it('takes each cadence the form offers', () => {
    for (const cadence of [
      { kind: 'daily', at: '00:00' },
      { kind: 'weekdays', days: ['mon', 'fri'], at: '23:59' },
      { kind: 'monthly', day: 31, at: '06:00' },
      { kind: 'monthly', day: 'last', at: '06:00' },
      { kind: 'cron', expression: '0 7 * * 1-5' },
    ])
      expect(cadenceSchema.safeParse(cadence).success, JSON.stringify(cadence)).toBe(true)
  })

  it('refuses times, days and repeats that cannot be run, with a sentence', () => {
    expect(firstMessage(cadenceSchema.safeParse({ kind: 'daily', at: '24:00' }))).toMatch(/HH:MM/)
    expect(firstMessage(cadenceSchema.safeParse({ kind: 'weekdays', days: [], at: '07:00' }))).toBe('Pick at least one day')
    expect(firstMessage(cadenceSchema.safeParse({ kind: 'weekdays', days: ['mon', 'mon'], at: '07:00' }))).toBe('Pick each day once')
    expect(cadenceSchema.safeParse({ kind: 'monthly', day: 32, at: '07:00' }).success).toBe(false)
    expect(cadenceSchema.safeParse({ kind: 'cron', expression: '   ' }).success).toBe(false)
  })

  it('keeps file-name patterns to a base name with known tokens', () => {
    expect(fileNamePatternSchema.safeParse('{preset} {date}').success).toBe(true)
    expect(firstMessage(fileNamePatternSchema.safeParse('../{preset}'))).toMatch(/cannot hold/)
    expect(firstMessage(fileNamePatternSchema.safeParse('{preset} {week}'))).toMatch(/Use only the tokens/)
  })

  it('needs at least one action', () => {
    const result = scheduleDraftSchema.safeParse({ ...draft, actions: { export: null, checkAlerts: false } })
    expect(firstMessage(result)).toBe('Choose at least one action: export a file or check alerts')
    expect(scheduleDraftSchema.safeParse({ ...draft, actions: { export: null, checkAlerts: true } }).success).toBe(true)
    expect(scheduleDraftSchema.safeParse(draft).success).toBe(true)
  })
})
