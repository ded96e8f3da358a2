import path from 'node:path'
import type { Preset, TimeSeriesView } from '@contract'
import { isAppError } from '../../services/errors'
import { writeFileAtomic } from '../../services/files/atomic'
import { csvRow } from '../../services/files/csv'
import { presetFileText, readImportText } from '../../services/presets/format'
import { readSmallFile } from '../../services/presets/transfer'
import type { Command, CommandContext } from '../command'
import { PROGRAM } from '../help'
import { writeJson, writeSentence, writeText } from '../io'
import { UsageError } from '../usage'
import { checkOutPath } from './report'

/**
 * Presets from the command line, over the app's presets folder: list them, show one, and run one
 * (by name or from a file) so a report can be scheduled with cron.
 */

function formatOf(context: CommandContext): 'json' | 'csv' {
  const format = context.values.format ?? 'json'
  if (format !== 'json' && format !== 'csv') throw new UsageError(`--format must be json or csv, not "${format}".`)
  return format
}

async function presetByName(context: CommandContext, name: string): Promise<Preset | null> {
  try {
    return await context.services.presets.get(name)
  } catch (error) {
    if (isAppError(error) && error.code === 'not_found') return null
    throw error
  }
}

/** A saved preset's name, or a preset file (what the app exports, or a file from the presets folder). */
export async function presetArgument(context: CommandContext, value: string): Promise<Preset> {
  const looksLikeFile = /[\\/]/.test(value) || value.toLowerCase().endsWith('.json')
  if (!looksLikeFile) {
    const saved = await presetByName(context, value)
    if (saved !== null) return saved
  }
  // Read as the app's Import reads a file: a regular file of a preset's size, never a device or a huge file whole.
  const text = await readSmallFile(value)
  if (typeof text !== 'string') {
    if (!looksLikeFile && text.code === 'ENOENT') throw new UsageError(`No preset is named "${value}". Run "presets list" to see them, or give a preset file.`)
    if (text.code !== null) throw new UsageError(`Cannot read the preset file ${value} (${text.code}).`)
    throw new UsageError(`${path.basename(value)} cannot be run because ${text.problem}.`)
  }
  const read = readImportText(text)
  if ('problem' in read) throw new UsageError(`${path.basename(value)} cannot be run because ${read.problem}.`)
  const [only, ...more] = read.presets
  if (only === undefined)
    throw new UsageError(`${path.basename(value)} holds no preset that can be read${read.problems[0] === undefined ? '' : `: ${read.problems[0]}`}.`)
  if (more.length > 0)
    throw new UsageError(`${path.basename(value)} holds ${read.presets.length} presets; run them one at a time (export one per file, or use their names).`)
  return only
}

const presetsList: Command = {
  group: 'presets',
  name: 'list',
  args: [],
  options: ['format'],
  connection: null,
  summary: 'list the saved presets (name, report, metrics, dates)',
  notes: ['Presets live in the "presets" folder of the app\'s data (see --user-data), one JSON file each.'],
  async run(context) {
    const format = formatOf(context)
    const { presets, refused } = await context.services.presets.list()
    for (const problem of refused) await writeSentence(context.io.stderr, `${PROGRAM}: warning: ${problem.reason}\n`)
    if (format === 'json') {
      await writeJson(context.io.stdout, presets)
      return
    }
    let text = csvRow(['name', 'project', 'report', 'metrics', 'breakdown', 'start', 'end', 'saved_at', 'description'])
    for (const preset of presets) {
      text += csvRow([
        preset.name,
        preset.project,
        preset.report,
        preset.metrics.join(' '),
        preset.breakdown.join(' '),
        preset.dates.start,
        preset.dates.end,
        preset.savedAt,
        preset.description,
      ])
    }
    await writeText(context.io.stdout, text)
  },
}

const presetsShow: Command = {
  group: 'presets',
  name: 'show',
  args: ['NAME'],
  options: [],
  connection: null,
  summary: 'print a saved preset as its file holds it',
  async run(context) {
    const name = context.args[0] ?? ''
    const preset = await presetByName(context, name)
    if (preset === null) throw new UsageError(`No preset is named "${name}". Run "presets list" to see them.`)
    await writeText(context.io.stdout, presetFileText(preset))
  },
}

/** The series as CSV: the category first, then one column per series. */
export function seriesCsv(result: TimeSeriesView): string {
  const metrics = new Set(result.series.map((series) => series.metric))
  const title = (series: TimeSeriesView['series'][number]) => (metrics.size > 1 ? `${series.metric}: ${series.label}` : series.label)
  let text = csvRow([result.granularity, ...result.series.map(title)])
  result.categories.forEach((category, index) => {
    text += csvRow([category, ...result.series.map((series) => series.values[index] ?? null)])
  })
  return text
}

const reportRun: Command = {
  group: 'report',
  name: 'run',
  args: [],
  options: ['preset', 'out', 'format'],
  connection: 'reporting',
  summary: 'run a preset (by name or file) and print its chart data, as the app draws it',
  notes: [
    'The dates are the preset\'s tokens, resolved now: a preset of "last 7 days" run by cron every Monday reports the week before.',
    'json (default): the whole result (ranges, series, stats). csv: the category, then one column per series.',
    "Run with --profile, the run is kept in the app's run history and its result shows in the app.",
  ],
  async run(context) {
    const source = context.values.preset
    if (source === undefined || source.trim() === '') throw new UsageError('report run needs --preset NAME or --preset FILE.')
    const format = formatOf(context)
    const target = context.values.out === undefined ? null : await checkOutPath(context.values.out)
    const preset = await presetArgument(context, source)
    const saved = context.values.profile === undefined ? null : await context.services.profiles.find(context.values.profile)
    const connection = await context.connect()
    const profileId = saved?.id ?? null
    const signal = context.signal ?? new AbortController().signal
    // No point budget: a file gets every point the platform answered, not a picture's worth.
    const result = await context.services
      .reports(connection, profileId)
      .run(profileId ?? 'cli', preset.definition, { signal, pointBudget: Number.MAX_SAFE_INTEGER, preset: preset.name })
    const text = format === 'csv' ? seriesCsv(result) : `${JSON.stringify(result, null, 2)}\n`
    if (target === null) {
      await writeText(context.io.stdout, text)
      return
    }
    await writeFileAtomic(target, text)
    await writeJson(context.io.stdout, {
      path: target,
      format,
      preset: preset.name,
      range: result.range,
      categories: result.categories.length,
      series: result.series.length,
    })
  },
}

export const presetCommands: readonly Command[] = [presetsList, presetsShow]
export const reportRunCommands: readonly Command[] = [reportRun]
