import type { Command, CommandContext } from '../command'
import { csvRow } from '../../services/files/csv'
import { PROGRAM } from '../help'
import { writeJson, writeText } from '../io'
import { UsageError } from '../usage'

/**
 * Boards from the command line, over the app's boards folder. `boards export NAME --format pdf|png`
 * needs a renderer to draw the board (issue 25) and is not here yet.
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
    for (const problem of refused) await writeText(context.io.stderr, `${PROGRAM}: warning: ${problem.reason}\n`)
    if (format === 'json') {
      await writeJson(context.io.stdout, boards)
      return
    }
    let text = csvRow(['name', 'tiles', 'presets', 'saved_at', 'description'])
    for (const board of boards) text += csvRow([board.name, board.tiles, board.presets.join('; '), board.savedAt, board.description])
    await writeText(context.io.stdout, text)
  },
}

export const boardCommands: readonly Command[] = [boardsList]
