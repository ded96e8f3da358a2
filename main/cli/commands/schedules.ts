/**
 * Schedules from the command line, over the app's schedules file and run ledger: list them, run
 * one now, and run whatever is due (what the OS scheduler's entry calls every few minutes).
 * Output: JSON lines, one per schedule or per run. Runs are recorded with source `os`.
 */
import type { LedgerEntry, Schedule } from '@contract'
import { AppError } from '../../services/errors'
import type { RunningSchedules } from '../../services/schedules/service'
import type { Command, CommandContext } from '../command'
import { writeText } from '../io'
import { UsageError } from '../usage'

async function schedulesOf(context: CommandContext): Promise<RunningSchedules> {
  const make = context.services.schedules
  if (make === undefined) throw new AppError('internal', 'Schedules are not available in this command line.')
  return await make()
}

const line = (value: unknown) => `${JSON.stringify(value)}\n`

function scheduleLine(schedule: Schedule): Record<string, unknown> {
  return {
    name: schedule.name,
    // `preset` stays for scripts written before boards could be scheduled; `board` is set instead for a board.
    preset: schedule.target.kind === 'preset' ? schedule.target.name : null,
    board: schedule.target.kind === 'board' ? schedule.target.name : null,
    cadence: schedule.cadenceText,
    enabled: schedule.enabled,
    export: schedule.actions.export === null ? null : { format: schedule.actions.export.format, folder: schedule.actions.export.folder.name },
    check_alerts: schedule.actions.checkAlerts,
    next_run: schedule.nextRunAt,
    problem: schedule.problem,
    last_run: schedule.lastRun === null ? null : { outcome: schedule.lastRun.outcome, started_at: schedule.lastRun.startedAt, error: schedule.lastRun.error },
    os_last_run: schedule.osLastRunAt,
  }
}

function runLine(entry: LedgerEntry): Record<string, unknown> {
  return {
    schedule: entry.scheduleName,
    preset: entry.target.kind === 'preset' ? entry.target.name : null,
    board: entry.target.kind === 'board' ? entry.target.name : null,
    outcome: entry.outcome,
    planned_at: entry.plannedAt,
    started_at: entry.startedAt,
    duration_ms: entry.durationMs,
    late: entry.late,
    file: entry.fileName,
    alerts_fired: entry.alertsFired,
    missing_tiles: entry.missingTiles,
    error: entry.error,
    attempts: entry.attempts,
  }
}

/** Exit 1 after the lines when a run did not succeed, with one sentence on stderr. */
function failIfAny(entries: LedgerEntry[]): void {
  const failed = entries.filter((entry) => entry.outcome !== 'ok')
  if (failed.length === 0) return
  const first = failed[0] as LedgerEntry
  const what =
    failed.length === 1 ? `"${first.scheduleName}" ${first.outcome === 'skipped' ? 'was skipped' : 'failed'}` : `${failed.length} runs did not succeed`
  throw new AppError('internal', `${what}: ${first.error ?? 'see the ledger'}`)
}

const EXIT_NOTES = [
  'Exit codes: 0 every run succeeded (or nothing was due), 1 a run failed or was skipped (its line says why; one sentence on stderr), 2 a usage error.',
]

const schedulesList: Command = {
  group: 'schedules',
  name: 'list',
  args: [],
  options: [],
  connection: null,
  summary: 'list the schedules (cadence, next run, last outcome), one JSON line each',
  notes: ['Schedules are made in the app; they live in the "schedules" folder of its data (see --user-data).'],
  async run(context) {
    const state = await (await schedulesOf(context)).list()
    for (const schedule of state.schedules) await writeText(context.io.stdout, line(scheduleLine(schedule)))
  },
}

const schedulesRun: Command = {
  group: 'schedules',
  name: 'run',
  args: ['NAME'],
  options: [],
  connection: null,
  summary: 'run one schedule now, whatever its cadence; one JSON line with the outcome',
  notes: ['A run of the same schedule already going (in the app or from the system scheduler) makes this one "skipped".', ...EXIT_NOTES],
  async run(context) {
    const name = context.args[0] ?? ''
    const schedules = await schedulesOf(context)
    const known = (await schedules.list()).schedules.some((schedule) => schedule.name.toLowerCase() === name.trim().toLowerCase())
    if (!known) throw new UsageError(`No schedule is named "${name}". Run "schedules list" to see them.`)
    const entry = await schedules.runByName(name)
    await writeText(context.io.stdout, line(runLine(entry)))
    failIfAny([entry])
  },
}

const schedulesRunDue: Command = {
  group: 'schedules',
  name: 'run-due',
  args: [],
  options: [],
  connection: null,
  summary: 'run every schedule whose time has come (a missed one once, marked late); what the system scheduler calls',
  notes: [
    'Each due schedule runs once, under the same lock as the app: a schedule the app is running is left to it, and its line says "skipped". One JSON line per run; nothing when nothing is due.',
    ...EXIT_NOTES,
  ],
  async run(context) {
    const entries = await (await schedulesOf(context)).runDue()
    for (const entry of entries) await writeText(context.io.stdout, line(runLine(entry)))
    failIfAny(entries)
  },
}

export const scheduleCommands: readonly Command[] = [schedulesList, schedulesRun, schedulesRunDue]
