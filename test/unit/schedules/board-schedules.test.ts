import { promises as fs } from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { ScheduleDraft } from '@contract'
import { AppError } from '../../../main/services/errors'
import { writeBoardFile } from '../../../main/services/schedules/board-action'
import { createLedger } from '../../../main/services/schedules/ledger'
import { SCHEDULES_FORMAT } from '../../../main/services/schedules/schedule-store'
import { temporaryFolder } from '../../support/services'
import { createHarness, draftWithFolder, type Harness } from './support'

const open: Harness[] = []
async function harness(): Promise<Harness> {
  const made = await createHarness('2026-11-26T06:00:00.000Z')
  open.push(made)
  return made
}
afterEach(() => {
  for (const made of open.splice(0)) made.service.stop()
})

async function boardDraft(made: Harness, change: Partial<ScheduleDraft> = {}): Promise<ScheduleDraft> {
  const draft = await draftWithFolder(made)
  const folderId = draft.actions.export?.folderId ?? ''
  return {
    ...draft,
    name: 'Monday PDF',
    target: { kind: 'board', name: 'Morning delivery' },
    profileId: 'profile-eu',
    actions: { export: { format: 'pdf', folderId, fileNamePattern: '{preset} {date}' }, checkAlerts: false },
    ...change,
  }
}

describe('a schedule that targets a board', () => {
  it('draws the board with the maker on its own connection, writes the file into the folder atomically, and says so in the ledger', async () => {
    const made = await harness()
    const saved = await made.service.save(await boardDraft(made))
    expect(saved.target).toEqual({ kind: 'board', name: 'Morning delivery' })

    const entry = await made.service.runNow(saved.id)
    // The run asks for the board by name, in the schedule's format, with its connection, refreshed.
    expect(made.boardMaker.calls).toEqual([{ board: 'Morning delivery', format: 'pdf', profileId: 'profile-eu', refresh: true }])
    expect(entry).toMatchObject({
      outcome: 'ok',
      target: { kind: 'board', name: 'Morning delivery' },
      fileName: 'Morning delivery 2026-11-26.pdf',
      missingTiles: [{ title: 'Bidders', reason: 'The platform answered 500.' }],
      alertsFired: null,
      error: null,
    })
    // Only the file: no temporary file is left beside it.
    expect(await fs.readdir(made.exportFolder)).toEqual(['Morning delivery 2026-11-26.pdf'])
    expect(await fs.readFile(path.join(made.exportFolder, 'Morning delivery 2026-11-26.pdf'), 'utf8')).toBe('%PDF-1.7 fake board\n')
    // The list says what it runs.
    expect((await made.service.list()).schedules[0]?.target).toEqual({ kind: 'board', name: 'Morning delivery' })
  })

  it('fails with a sentence when the board was renamed or deleted, before drawing anything, and when it goes during the drawing', async () => {
    const made = await harness()
    const saved = await made.service.save(await boardDraft(made))
    made.boards.delete('Morning delivery')
    const gone = await made.service.runNow(saved.id)
    expect(gone.outcome).toBe('failed')
    expect(gone.error).toMatch(/^The board "Morning delivery" was renamed or deleted, so this schedule has nothing to draw\. Choose the board again/)
    expect(made.boardMaker.calls).toEqual([])

    made.boards.add('Morning delivery')
    made.boardMaker.failure = new AppError('not_found', 'There is no board named “Morning delivery”.')
    const during = await made.service.runNow(saved.id)
    expect(during.error).toMatch(/^The board "Morning delivery" was renamed or deleted/)
    expect(await fs.readdir(made.exportFolder)).toEqual([])
    expect(made.notifications.map((notification) => notification.title)).toEqual(['Schedule failed: Monday PDF', 'Schedule failed: Monday PDF'])
  })

  it('refuses a board that does not exist, a preset format, alert checks, range tokens and the report timezone when saving', async () => {
    const made = await harness()
    await expect(made.service.save(await boardDraft(made, { target: { kind: 'board', name: 'Nope' } }))).rejects.toMatchObject({
      code: 'validation',
      message: 'There is no board named "Nope". Choose a saved board.',
    })
    const { scheduleDraftSchema } = await import('@contract')
    const problems = async (change: Partial<ScheduleDraft>) =>
      scheduleDraftSchema.safeParse(await boardDraft(made, change)).error?.issues.map((issue) => [issue.path.join('.'), issue.message])
    const folderId = (await boardDraft(made)).actions.export?.folderId ?? ''
    expect(await problems({ actions: { export: { format: 'xlsx', folderId, fileNamePattern: '{preset}' }, checkAlerts: false } })).toEqual([
      ['actions.export.format', 'A board is written as PDF, PNG: choose one of those'],
    ])
    expect(await problems({ actions: { export: { format: 'png', folderId, fileNamePattern: '{preset} {start}' }, checkAlerts: true } })).toEqual([
      ['actions', "A board has no alert rules of its own: schedule its presets' alert checks"],
      ['actions.export.fileNamePattern', "A board's tiles may each cover other dates, so its file name cannot hold {start} or {end}: use {date}"],
    ])
    expect(await problems({ timezone: 'report' })).toEqual([
      ['timezone', "A board's tiles may come from reports in other timezones: run it in this computer's timezone"],
    ])
    // And a preset is not written as a PDF.
    const preset = await draftWithFolder(made)
    expect(scheduleDraftSchema.safeParse({ ...preset, actions: { ...preset.actions, export: { ...preset.actions.export, format: 'pdf' } } }).success).toBe(
      false,
    )
  })

  it('fails with a sentence where no board file maker is wired', async () => {
    const made = await createHarness('2026-11-26T06:00:00.000Z', { boardFiles: null })
    open.push(made)
    const saved = await made.service.save(await boardDraft(made))
    expect((await made.service.runNow(saved.id)).error).toMatch(/cannot draw boards as files yet/)
  })

  it('leaves no file and no temporary file when the write fails', async () => {
    const folder = await temporaryFolder('adops-board-write-')
    const failing = { ...fs, rename: async () => Promise.reject(Object.assign(new Error('disk full'), { code: 'ENOSPC' })) }
    await expect(
      writeBoardFile(
        { board: 'Morning delivery', format: 'png', profileId: 'p', fileNamePattern: '{preset} {date}', runDate: '2026-11-26' },
        {
          boardExists: async () => undefined,
          boardFiles: { make: async () => ({ bytes: new Uint8Array([137, 80, 78, 71]), suggestedName: 'x.png', tiles: 1, missing: [], oldestAsOf: null }) },
          folderOf: async () => folder,
          fs: failing,
        },
      ),
    ).rejects.toThrow(/disk full/)
    expect(await fs.readdir(folder)).toEqual([])
  })
})

describe('older schedules files and ledger lines', () => {
  it('reads a format-1 file (a preset by `preset`) as a preset target and runs it', async () => {
    const made = await harness()
    const saved = await made.service.save(await draftWithFolder(made))
    const file = path.join(made.folder, 'schedules.json')
    const current = JSON.parse(await fs.readFile(file, 'utf8')) as { version: number; schedules: Array<Record<string, unknown>> }
    expect(current.version).toBe(SCHEDULES_FORMAT)
    const { target: _target, ...rest } = current.schedules[0] ?? {}
    await fs.writeFile(file, JSON.stringify({ ...current, version: 1, schedules: [{ ...rest, preset: 'Monday revenue' }] }))

    const fresh = await createHarness('2026-11-26T06:00:00.000Z', { folder: made.folder, clock: made.clock })
    open.push(fresh)
    const listed = (await fresh.service.list()).schedules
    expect(listed.map((schedule) => [schedule.id, schedule.target])).toEqual([[saved.id, { kind: 'preset', name: 'Monday revenue' }]])
    expect((await fresh.service.runNow(saved.id)).outcome).toBe('ok')
  })

  it('refuses a newer file as before (moved aside, the list starts empty)', async () => {
    const made = await harness()
    await fs.mkdir(made.folder, { recursive: true })
    await fs.writeFile(path.join(made.folder, 'schedules.json'), JSON.stringify({ version: SCHEDULES_FORMAT + 1, schedules: [] }))
    expect((await made.service.list()).schedules).toEqual([])
    expect((await fs.readdir(made.folder)).some((name) => name.startsWith('schedules.json') && name !== 'schedules.json')).toBe(true)
  })

  it('reads ledger lines written before boards as preset runs', async () => {
    const folder = await temporaryFolder('adops-ledger-old-')
    const old = {
      id: 'run-1',
      scheduleId: 'schedule-1',
      scheduleName: 'Morning file',
      preset: 'Monday revenue',
      source: 'app',
      trigger: 'manual',
      plannedAt: null,
      startedAt: '2026-11-25T07:00:00.000Z',
      durationMs: 10,
      outcome: 'ok',
      late: false,
      fileName: 'a.csv',
      alertsFired: null,
      error: null,
      attempts: 1,
    }
    await fs.writeFile(path.join(folder, 'ledger.jsonl'), `${JSON.stringify(old)}\n`)
    const [entry] = await createLedger({ folder }).all()
    expect(entry).toMatchObject({ target: { kind: 'preset', name: 'Monday revenue' }, missingTiles: null })
  })
})
