import { describe, expect, it } from 'vitest'
import { draftOfForm, formOfSchedule, newScheduleForm } from '../../../../../renderer/src/domain/schedules/form'
import type { Schedule } from '../../../../../preload/contract'

describe('schedule form', () => {
  it('sends the chosen cadence kind alone and keeps the others for a switch back', () => {
    const form = {
      ...newScheduleForm('demo', 'Weekly'),
      folder: { id: 'f1', name: 'Reports', available: true },
      kind: 'cron' as const,
      expression: '0 6 * * *',
    }
    const check = draftOfForm(form)
    expect(check.ok && check.draft.cadence).toEqual({ kind: 'cron', expression: '0 6 * * *' })
    expect(check.ok && check.draft.actions.export).toEqual({ format: 'xlsx', folderId: 'f1', fileNamePattern: '{preset} {start} to {end}' })
    expect(draftOfForm({ ...form, kind: 'weekdays' }).ok && form.days).toEqual(['mon', 'tue', 'wed', 'thu', 'fri'])
  })

  it('puts each problem under its field', () => {
    const check = draftOfForm({ ...newScheduleForm('demo', null), name: ' ', fileNamePattern: 'a {week}', kind: 'weekdays', days: [] })
    expect(check.ok).toBe(false)
    if (check.ok) return
    expect(check.problems.preset).toMatch(/Choose the preset/)
    expect(check.problems.folder).toMatch(/Choose the folder/)
    expect(check.problems.name).toBe('Required')
    expect(check.problems.fileNamePattern).toMatch(/Use only the tokens/)
    expect(check.problems.cadence).toMatch(/Pick at least one day/)
  })

  it('asks for at least one action', () => {
    const check = draftOfForm({ ...newScheduleForm('demo', 'Weekly'), exportFile: false, checkAlerts: false })
    expect(!check.ok && check.problems.actions).toMatch(/at least one action/)
  })

  it('reads a saved schedule back into the form', () => {
    const schedule = {
      id: 's1',
      name: 'Monthly',
      preset: 'Weekly',
      profileId: 'demo',
      actions: { export: null, checkAlerts: true },
      cadence: { kind: 'monthly', day: 'last', at: '23:00' },
      timezone: 'computer',
      enabled: false,
    } as unknown as Schedule
    const form = formOfSchedule(schedule)
    expect(form).toMatchObject({
      id: 's1',
      exportFile: false,
      checkAlerts: true,
      kind: 'monthly',
      monthDay: 'last',
      at: '23:00',
      timezone: 'computer',
      enabled: false,
    })
    expect(draftOfForm(form)).toMatchObject({ ok: true, draft: { id: 's1', cadence: { kind: 'monthly', day: 'last', at: '23:00' } } })
  })
})
