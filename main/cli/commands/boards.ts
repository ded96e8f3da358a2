import { boardFileFormats, type BoardFileFormat } from '@contract'
import type { Command, CommandContext } from '../command'
import { csvRow } from '../../services/files/csv'
import { writeChosenFile } from '../../services/files/save-target'
import { AppError } from '../../services/errors'
import { checkOutPath } from './report'
import { PROGRAM } from '../help'
import { writeJson, writeSentence, writeText } from '../io'
import { UsageError } from '../usage'

/**
 * Boards from the command line, over the app's boards folder: the list, and a board drawn as a
 * PDF or PNG page by the same code as the app's button and a scheduled board (no window needed).
 */

function formatOf(context: CommandContext): 'json' | 'csv' {
  const format = context.values.format ?? 'json'
  if (format !== 'json' && format !== 'csv') throw new UsageError(`--format must be json or csv, not "${format}".`)
  return format
}

const boardsList: Command = {
  group: 'boards',
  name: 'list',
  args: [],
  options: ['format'],
  connection: null,
  summary: 'list the saved boards (name, tiles, the presets they use)',
  notes: ['Boards live in the "boards" folder of the app\'s data (see --user-data), one JSON file each, beside the presets.'],
  async run(context) {
    const format = formatOf(context)
    const { boards, refused } = await context.services.boards.list()
    for (const problem of refused) await writeSentence(context.io.stderr, `${PROGRAM}: warning: ${problem.reason}\n`)
    if (format === 'json') {
      await writeJson(context.io.stdout, boards)
      return
    }
    let text = csvRow(['name', 'tiles', 'presets', 'saved_at', 'description'])
    for (const board of boards) text += csvRow([board.name, board.tiles, board.presets.join('; '), board.savedAt, board.description])
    await writeText(context.io.stdout, text)
  },
}

/** Exit code: written, but some tiles have no data (each named on standard error). */
export const EXIT_TILES_MISSING = 4

function pageFormatOf(context: CommandContext): BoardFileFormat {
  const format = context.values.format
  if (format === undefined) throw new UsageError('boards export needs --format pdf or --format png.')
  const known = boardFileFormats.find((name) => name === format)
  if (known === undefined) throw new UsageError(`--format must be pdf or png, not "${format}".`)
  return known
}

const boardsExport: Command = {
  group: 'boards',
  name: 'export',
  args: ['NAME'],
  options: ['format', 'out', 'kept'],
  optionHelp: { format: 'pdf or png (required)' },
  connection: 'reporting',
  summary: 'draw a board as a PDF or PNG page (each tile run first, or its kept result with --kept)',
  notes: [
    'Every tile runs against the connection first, with the board\'s dates and timezone; a tile whose run fails shows its kept result, or "No data".',
    "--kept draws each tile from the result the app keeps for it (with --profile: that connection's), without connecting: it works offline.",
    'The file is written whole or not at all. Exit 0: written; 1: nothing written, every tile failed to run (the platform or the network);',
    '2: usage (an unknown board, a bad --format, no --out); 4: written, but some tiles have no data (each named on standard error).',
  ],
  async run(context) {
    const [name = ''] = context.args
    const format = pageFormatOf(context)
    if (context.values.out === undefined) throw new UsageError('boards export needs --out FILE.')
    const target = await checkOutPath(context.values.out)
    const board = await context.services.boards.get(name).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'not_found')
        throw new UsageError(`No board is named "${name}". Run "${PROGRAM} boards list" to see them.`)
      throw error
    })
    const refresh = context.values.kept !== true
    const saved = context.values.profile === undefined ? null : await context.services.profiles.find(context.values.profile)
    const profileId = saved?.id ?? (refresh ? 'cli' : null)
    const maker = context.services.boardFiles(() => context.connect(), saved?.id ?? null)
    const file = await maker.make({ board: board.name, format, profileId, refresh }, context.signal ?? new AbortController().signal)
    const failedRuns = file.missing.filter((tile) => tile.reason.startsWith('the run failed'))
    if (refresh && file.tiles > 0 && file.oldestAsOf === null && failedRuns.length > 0) {
      for (const tile of file.missing) await writeSentence(context.io.stderr, `${PROGRAM}: "${tile.title}": ${tile.reason}\n`)
      await writeSentence(
        context.io.stderr,
        `${PROGRAM}: No tile of "${board.name}" could be drawn with data, so nothing was written. Check the connection and try again.\n`,
      )
      return 1
    }
    await writeChosenFile(target, file.bytes)
    await writeJson(context.io.stdout, {
      path: target,
      format,
      board: board.name,
      tiles: file.tiles,
      missing: file.missing.length,
      oldestAsOf: file.oldestAsOf,
    })
    for (const tile of file.missing) await writeSentence(context.io.stderr, `${PROGRAM}: warning: the tile "${tile.title}": ${tile.reason}\n`)
    return file.missing.length > 0 ? EXIT_TILES_MISSING : undefined
  },
}

export const boardCommands: readonly Command[] = [boardsList, boardsExport]
