/**
 * A schedules service over a temp data folder and a fake clock: timers fire only when a test
 * moves the clock, and a "sleep" of the machine is a jump of the clock with no timer firing.
 */
import { promises as fs } from 'node:fs'
import path from 'node:path'
import type { LedgerEntry, ReportDefinition, ScheduleDraft } from '@contract'
import { AppError } from '../../../main/services/errors'
import type { BoardFile, BoardFileMaker, BoardFileRequest } from '../../../main/services/boards/board-file-types'
import type { AlertsPort } from '../../../main/services/schedules/alerts-port'
import { createSchedulesService, type RunningSchedules, type SchedulesServiceOptions } from '../../../main/services/schedules/service'
import { sampleDefinition } from '../../support/channel-samples'
import { temporaryFolder } from '../../support/services'

export class FakeClock {
  time: number
  private nextId = 1
  readonly timers = new Map<number, { at: number; callback: () => void }>()
  /** Every delay a timer was armed with, in order. */
  readonly armed: number[] = []
  /** Every backoff the runs waited. */
  readonly slept: number[] = []

  constructor(start: string) {
    this.time = Date.parse(start)
  }

  now = (): Date => new Date(this.time)
  setTimer = (delayMs: number, callback: () => void): unknown => {
    const id = this.nextId++
    this.armed.push(delayMs)
    this.timers.set(id, { at: this.time + delayMs, callback })
    return id
  }
  clearTimer = (handle: unknown): void => void this.timers.delete(handle as number)
  /** Backoff waits pass at once, recorded: the clock moves by them. */
  sleep = async (ms: number): Promise<void> => {
    this.slept.push(ms)
    this.time += ms
  }

  /** Moves time forward firing each timer at its moment, letting the work it starts finish before the next. */
  async advanceTo(target: string, settle: () => Promise<void>): Promise<void> {
    const end = Date.parse(target)
    for (;;) {
      const due = [...this.timers.entries()].filter(([, timer]) => timer.at <= end).sort((a, b) => a[1].at - b[1].at)[0]
      if (due === undefined) break
      this.timers.delete(due[0])
      this.time = Math.max(this.time, due[1].at)
      due[1].callback()
      await settle()
    }
    this.time = end
  }

  /** The machine slept: time passed, no timer fired. */
  jump(target: string): void {
    this.time = Date.parse(target)
  }
}

/** A board file maker that records what it was asked and answers a small file (or what a test sets). */
export class FakeBoardMaker implements BoardFileMaker {
  readonly calls: BoardFileRequest[] = []
  answer: BoardFile = {
    bytes: new TextEncoder().encode('%PDF-1.7 fake board\n'),
    suggestedName: 'board.pdf',
    tiles: 3,
    missing: [{ title: 'Bidders', reason: 'The platform answered 500.' }],
    oldestAsOf: '2026-11-26T06:00:00.000Z',
  }
  failure: Error | null = null

  async make(request: BoardFileRequest): Promise<BoardFile> {
    this.calls.push(request)
    if (this.failure) throw this.failure
    return this.answer
  }
}

export interface Harness {
  service: RunningSchedules
  clock: FakeClock
  folder: string
  exportFolder: string
  presets: Map<string, ReportDefinition>
  /** Saved boards, by name; a board schedule's file is drawn by `boardMaker`. */
  boards: Set<string>
  boardMaker: FakeBoardMaker
  exports: Array<{ target: string }>
  notifications: Array<{ title: string; body: string }>
  ran: LedgerEntry[]
  /** What the fake export does; writes a small file by default. */
  exportBehaviour: { fail: { code: string | null; sentence: string } | null; throwCode: string | null; gate: Promise<void> | null }
}

export async function createHarness(
  start = '2026-11-26T06:00:00.000Z',
  extra: Partial<SchedulesServiceOptions> & { folder?: string; clock?: FakeClock; alerts?: AlertsPort | null } = {},
): Promise<Harness> {
  const folder = extra.folder ?? path.join(await temporaryFolder('adops-schedules-'), 'schedules')
  const exportFolder = await temporaryFolder('adops-schedule-out-')
  const clock = extra.clock ?? new FakeClock(start)
  const presets = new Map<string, ReportDefinition>([['Monday revenue', sampleDefinition]])
  const boards = new Set(['Morning delivery'])
  const harness: Omit<Harness, 'service'> = {
    clock,
    folder,
    exportFolder,
    presets,
    boards,
    boardMaker: new FakeBoardMaker(),
    exports: [],
    notifications: [],
    ran: [],
    exportBehaviour: { fail: null, throwCode: null, gate: null },
  }
  const service = createSchedulesService({
    folder,
    source: 'app',
    notices: { add: (notice) => ({ ...notice, id: 'notice' }) },
    clock,
    async presetOf(name) {
      const found = presets.get(name)
      if (found === undefined) throw new AppError('not_found', `There is no preset named "${name}".`)
      return found
    },
    async boardExists(name) {
      if (!boards.has(name)) throw new AppError('not_found', `There is no board named "${name}".`)
    },
    boardFiles: harness.boardMaker,
    reportOffsetHours: async () => 1,
    async exportTo(_schedule, _format, targetOf) {
      const target = await targetOf({ range: { start: '2026-11-19', end: '2026-11-25', timezone: 0, days: 7 }, preset: 'Monday revenue' })
      harness.exports.push({ target })
      if (harness.exportBehaviour.gate) await harness.exportBehaviour.gate
      if (harness.exportBehaviour.throwCode)
        throw new AppError(harness.exportBehaviour.throwCode as 'network', 'The platform could not be reached. Check your network.')
      if (harness.exportBehaviour.fail) return { fileName: path.basename(target), failure: harness.exportBehaviour.fail }
      await fs.writeFile(target, 'a,b\n1,2\n')
      return { fileName: path.basename(target), failure: null }
    },
    alerts: extra.alerts === undefined ? null : extra.alerts,
    chooseFolderPath: async () => exportFolder,
    notify: (notification) => harness.notifications.push(notification),
    ran: (entry) => harness.ran.push(entry),
    osEntry: null,
    backgroundSupported: false,
    pid: 4242,
    isAlive: (pid) => pid === 4242,
    log: { warn: () => undefined },
    computerTimeZone: 'UTC',
    ...extra,
  })
  return Object.assign(harness, { service })
}

export async function draftWithFolder(harness: Harness, change: Partial<ScheduleDraft> = {}): Promise<ScheduleDraft> {
  const folder = await harness.service.chooseFolder()
  if (folder === null) throw new Error('no folder')
  return {
    name: 'Morning file',
    target: { kind: 'preset', name: 'Monday revenue' },
    profileId: 'demo',
    actions: { export: { format: 'csv', folderId: folder.id, fileNamePattern: '{preset} {start} to {end}' }, checkAlerts: false },
    cadence: { kind: 'daily', at: '07:00' },
    timezone: 'computer',
    enabled: true,
    ...change,
  }
}
