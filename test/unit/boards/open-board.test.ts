import path from 'node:path'
import { promises as fs } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { Board, Notice, ReportDefinition } from '@contract'
import { createBoardStore } from '../../../main/services/boards/board-store'
import { createBoardTransfer, readBoardImport } from '../../../main/services/boards/board-transfer'
import { applyBoardOverrides, openBoardTiles } from '../../../main/services/boards/open-board'
import { AppError } from '../../../main/services/errors'
import { createFolderDialogs, dialogFolders } from '../../../main/services/files/folder-dialogs'
import { createPresetStore } from '../../../main/services/presets/preset-store'
import { sampleBoard, sampleDefinition } from '../../support/channel-samples'
import { temporaryFolder } from '../../support/services'

const weekly: ReportDefinition = { ...sampleDefinition, dates: { start: '-30d', end: 'today' }, timezone: { mode: 'report' } }
const presetOf = async (name: string): Promise<ReportDefinition> => {
  if (name === 'Weekly EU') return weekly
  throw new AppError('not_found', `There is no preset named “${name}”.`)
}
const noOverrides: Board['overrides'] = { dates: null, timezone: null }

describe("the board's overrides on each tile's request", () => {
  it("dates: the board's range replaces every tile's own, the rest of the definition untouched", async () => {
    const board: Board = { ...sampleBoard, overrides: { dates: { start: '-7d', end: 'yesterday' }, timezone: null } }
    const tiles = await openBoardTiles(board, presetOf)
    expect(tiles.map((tile) => tile.definition?.dates)).toEqual([
      { start: '-7d', end: 'yesterday' },
      { start: '-7d', end: 'yesterday' },
    ])
    expect(tiles.map((tile) => tile.definition?.timezone)).toEqual([{ mode: 'report' }, sampleDefinition.timezone])
    expect({ ...tiles[0]?.definition, dates: weekly.dates }).toEqual(weekly)
  })

  it("timezone: the board's rule replaces every tile's own, dates untouched", async () => {
    const board: Board = { ...sampleBoard, overrides: { dates: null, timezone: { mode: 'fixed', offset: -5 } } }
    const tiles = await openBoardTiles(board, presetOf)
    expect(tiles.map((tile) => tile.definition?.timezone)).toEqual([
      { mode: 'fixed', offset: -5 },
      { mode: 'fixed', offset: -5 },
    ])
    expect(tiles.map((tile) => tile.definition?.dates)).toEqual([weekly.dates, sampleDefinition.dates])
  })

  it("none: each tile runs exactly its own definition, so its preset's kept result is the one found", async () => {
    const tiles = await openBoardTiles({ ...sampleBoard, overrides: noOverrides }, presetOf)
    expect(tiles.map((tile) => tile.definition)).toEqual([weekly, sampleDefinition])
    expect(applyBoardOverrides(weekly, noOverrides)).toEqual(weekly)
  })

  it('names each tile and says why a tile whose preset is gone cannot run, keeping the others', async () => {
    const board: Board = {
      ...sampleBoard,
      tiles: [...sampleBoard.tiles, { ...sampleBoard.tiles[0]!, id: 'tile-3', source: { kind: 'preset', preset: 'Gone' } }],
    }
    const tiles = await openBoardTiles(board, presetOf)
    expect(tiles.map((tile) => [tile.title, tile.preset, tile.problem])).toEqual([
      ['Weekly EU', 'Weekly EU', null],
      ['Supply total', null, null],
      ['Gone', 'Gone', 'The preset “Gone” no longer exists. Import it again, or remove this tile.'],
    ])
  })
})

describe('a board file with its presets', () => {
  it('exports the board and the presets it uses, and imports them elsewhere, tiles following renamed presets', async () => {
    const notices = { add: (notice: Omit<Notice, 'id'>) => ({ id: '', ...notice }) }
    const here = await temporaryFolder('adops-board-export-')
    const presets = createPresetStore({ folder: path.join(here, 'presets'), notices })
    const boards = createBoardStore({ folder: path.join(here, 'boards'), notices })
    await presets.save({ name: 'Weekly EU', definition: weekly }, false)
    await boards.save(sampleBoard, false)
    const exported = await createBoardTransfer(boards, presets, createFolderDialogs(here)).export('Monday board')
    expect(exported).toEqual({ saved: true, fileName: 'monday-board.board.json', presets: 1 })

    const there = await temporaryFolder('adops-board-import-')
    await fs.mkdir(dialogFolders(there).imports, { recursive: true })
    await fs.copyFile(path.join(dialogFolders(here).exports, 'monday-board.board.json'), path.join(dialogFolders(there).imports, 'monday-board.board.json'))
    const theirPresets = createPresetStore({ folder: path.join(there, 'presets'), notices })
    // A different preset of the same name already there: the imported one is renamed and the tile follows it.
    await theirPresets.save({ name: 'Weekly EU', definition: sampleDefinition }, false)
    const theirBoards = createBoardStore({ folder: path.join(there, 'boards'), notices })
    const imported = await createBoardTransfer(theirBoards, theirPresets, createFolderDialogs(there)).import()
    expect(imported).toMatchObject({ cancelled: false, presets: ['Weekly EU (imported)'], skipped: [] })
    const board = await theirBoards.get('Monday board')
    expect(board.tiles[0]?.source).toEqual({ kind: 'preset', preset: 'Weekly EU (imported)' })
    expect((await theirPresets.get('Weekly EU (imported)')).definition).toEqual(weekly)
  })

  it('refuses a file that is not a board with a sentence', () => {
    expect(readBoardImport('[]')).toEqual({ problem: 'it does not hold a JSON object' })
    expect(readBoardImport('{')).toMatchObject({ problem: expect.stringMatching(/^it is not valid JSON/) })
  })
})
