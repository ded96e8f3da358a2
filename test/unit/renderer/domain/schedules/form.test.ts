import { describe, expect, it } from 'vitest'
import { draftOfForm, formOfSchedule, missingTilesText, newScheduleForm, switchTargetKind, targetText } from '../../../../../renderer/src/domain/schedules/form'
import type { Schedule } from '../../../../../preload/contract'

describe('schedule form', () => {
  it('sends the chosen cadence kind alone and keeps the others for a switch back', () => {
    const form = {
      ...newScheduleForm('demo', { kind: 'preset', name: 'Weekly' }),
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
    expect(check.problems.target).toMatch(/Choose the preset/)
    expect(check.problems.folder).toMatch(/Choose the folder/)
    expect(check.problems.name).toBe('Required')
    expect(check.problems.fileNamePattern).toMatch(/Use only the tokens/)
    expect(check.problems.cadence).toMatch(/Pick at least one day/)
  })

  it('asks for at least one action', () => {
    const check = draftOfForm({ ...newScheduleForm('demo', { kind: 'preset', name: 'Weekly' }), exportFile: false, checkAlerts: false })
    expect(!check.ok && check.problems.actions).toMatch(/at least one action/)
  })

  it('reads a saved schedule back into the form', () => {
    const schedule = {
      id: 's1',
      name: 'Monthly',
      target: { kind: 'preset', name: 'Weekly' },
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

  it("opens with a board preselected as a board file: PDF, named by its day, in this computer's timezone, no alert check", () => {
    const form = { ...newScheduleForm('demo', { kind: 'board', name: 'Morning delivery' }), folder: { id: 'f1', name: 'Reports', available: true } }
    expect(form).toMatchObject({ targetKind: 'board', targetName: 'Morning delivery', format: 'pdf', fileNamePattern: '{preset} {date}', timezone: 'computer' })
    expect(draftOfForm(form)).toMatchObject({
      ok: true,
      draft: {
        target: { kind: 'board', name: 'Morning delivery' },
        actions: { export: { format: 'pdf', folderId: 'f1', fileNamePattern: '{preset} {date}' }, checkAlerts: false },
      },
    })
    // A pattern with a range token is refused under its field, with the contract's sentence.
    const ranged = draftOfForm({ ...form, fileNamePattern: '{preset} {start}' })
    expect(!ranged.ok && ranged.problems.fileNamePattern).toMatch(/cannot hold \{start\} or \{end\}/)
  })

  it('switches between a preset and a board keeping what fits', () => {
    const preset = { ...newScheduleForm('demo', { kind: 'preset', name: 'Weekly' }), format: 'csv' as const, checkAlerts: true, timezone: 'report' as const }
    const board = switchTargetKind(preset, 'board')
    expect(board).toMatchObject({
      targetKind: 'board',
      targetName: null,
      format: 'pdf',
      checkAlerts: false,
      timezone: 'computer',
      fileNamePattern: '{preset} {date}',
    })
    expect(draftOfForm(board)).toMatchObject({ ok: false, problems: { target: 'Choose the board to draw' } })
    const back = switchTargetKind({ ...board, fileNamePattern: 'Mine {date}' }, 'preset')
    expect(back).toMatchObject({ targetKind: 'preset', format: 'xlsx', fileNamePattern: 'Mine {date}' })
  })

  it('names a board "Board: <name>" in the list and the ledger, a preset by its name, and the tiles without data', () => {
    expect(targetText({ kind: 'board', name: 'Morning' })).toBe('Board: Morning')
    expect(targetText({ kind: 'preset', name: 'Weekly' })).toBe('Weekly')
    expect(missingTilesText(null)).toBeNull()
    expect(missingTilesText([{ title: 'Bidders', reason: 'The platform answered 500.' }])).toBe('1 tile had no data: Bidders (The platform answered 500.)')
  })
})
