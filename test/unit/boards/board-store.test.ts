import { promises as fs } from 'node:fs'
import path from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import type { Board, Notice } from '@contract'
import { boardFileText, boardMigrations, readBoardDocument } from '../../../main/services/boards/board-format'
import { createBoardStore, type BoardStore } from '../../../main/services/boards/board-store'
import { AppError } from '../../../main/services/errors'
import { sampleBoard } from '../../support/channel-samples'
import { temporaryFolder } from '../../support/services'

let folder: string
let notices: Notice[]
let clock: number
const now = () => new Date(Date.UTC(2026, 10, 26, 9, 0, clock++))
const open = (): BoardStore =>
  createBoardStore({ folder, notices: { add: (notice) => (notices.push({ id: String(notices.length), ...notice }), { id: '', ...notice }) }, now })

async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise
  } catch (error) {
    if (error instanceof AppError) return error
    throw error
  }
  throw new Error('expected a failure')
}

beforeEach(async () => {
  folder = path.join(await temporaryFolder('adops-boards-'), 'boards')
  notices = []
  clock = 0
})

describe('a board on disk', () => {
  it('round-trips every field (both tile sources, place, view, both overrides) through a new store', async () => {
    const saved = await open().save(sampleBoard, false)
    const again = await open().get('MONDAY board')
    expect(again).toEqual({ ...sampleBoard, savedAt: '2026-11-26T09:00:00.000Z' })
    expect(again).toEqual(saved)
  })

  it('is written in one stable shape: version first, keys in order, two spaces, a final newline, a readable file name', async () => {
    await open().save(sampleBoard, false)
    const text = await fs.readFile(path.join(folder, 'monday-board.json'), 'utf8')
    const shuffled: Board = {
      tiles: sampleBoard.tiles,
      overrides: sampleBoard.overrides,
      savedAt: '2026-11-26T09:00:00.000Z',
      description: 'The morning look',
      name: 'Monday board',
    }
    expect(text).toBe(boardFileText(shuffled))
    expect(Object.keys(JSON.parse(text) as object)).toEqual(['version', 'name', 'description', 'savedAt', 'overrides', 'tiles'])
    expect(text.endsWith('}\n')).toBe(true)
    expect(text).toContain('\n  "name": "Monday board"')
  })

  it('moves a corrupt file aside with a notice and keeps the other boards', async () => {
    await open().save(sampleBoard, false)
    await fs.writeFile(path.join(folder, 'broken.json'), '{ not json')
    await fs.writeFile(path.join(folder, 'wrong.json'), JSON.stringify({ version: 1, name: 'Wrong', tiles: 'no' }))
    const { boards } = await open().list()
    expect(boards.map((board) => board.name)).toEqual(['Monday board'])
    expect(notices.map((notice) => notice.message)).toEqual([
      expect.stringMatching(/^The board file broken\.json could not be read because it is not valid JSON .* moved aside as broken\.json\.corrupt-/),
      expect.stringMatching(/^The board file wrong\.json could not be read because its content is not a board: /),
    ])
    const left = await fs.readdir(folder)
    expect(left.filter((name) => name.endsWith('.json')).sort()).toEqual(['monday-board.json'])
  })

  it('refuses a newer format with a sentence and leaves the file as it is', async () => {
    const newer = `${JSON.stringify({ version: 3, name: 'From the future', tiles: [] })}\n`
    await fs.mkdir(folder, { recursive: true })
    await fs.writeFile(path.join(folder, 'future.json'), newer)
    const { boards, refused } = await open().list()
    expect(boards).toEqual([])
    expect(refused).toEqual([
      {
        fileName: 'future.json',
        reason:
          'future.json was left as it is because it was saved by a newer version of AdOps Desk (board format 3; this version reads up to 2). Update AdOps Desk to open it.',
      },
    ])
    expect(await fs.readFile(path.join(folder, 'future.json'), 'utf8')).toBe(newer)
    expect(notices).toEqual([])
  })

  it('refuses a tile placed beyond the grid, two tiles with one id, and an unknown view', () => {
    const file = JSON.parse(boardFileText(sampleBoard)) as Record<string, unknown> & { tiles: Array<Record<string, unknown>> }
    const withTile = (change: Record<string, unknown>) => ({ ...file, tiles: [{ ...file.tiles[0], ...change }, file.tiles[1]] })
    expect(readBoardDocument(withTile({ place: { x: 8, y: 0, w: 6, h: 4 } }))).toMatchObject({
      state: 'invalid',
      reason: expect.stringContaining('12 columns'),
    })
    expect(readBoardDocument(withTile({ id: 'tile-2' }))).toMatchObject({ state: 'invalid', reason: expect.stringContaining('Two tiles share an id') })
    expect(readBoardDocument(withTile({ view: 'gauge' }))).toMatchObject({ state: 'invalid', reason: expect.stringContaining('tiles.0.view') })
  })
})

describe('older formats', () => {
  // Format 1 is the first; a synthetic format 0 and step prove the chain runs every step after it (1 → 2 included).
  const formatZero = { version: 0, title: 'Old board', tiles: [] }
  const zeroToOne = (raw: Record<string, unknown>) => ({
    version: 1,
    name: raw.title,
    description: '',
    savedAt: '2026-01-01T00:00:00.000Z',
    overrides: { dates: null, timezone: null },
    tiles: raw.tiles,
  })

  it('are brought up to date step by step before the check', () => {
    expect(readBoardDocument(formatZero, { ...boardMigrations, 0: zeroToOne })).toEqual({
      state: 'ok',
      board: {
        name: 'Old board',
        description: '',
        savedAt: '2026-01-01T00:00:00.000Z',
        overrides: { dates: null, timezone: null, profileId: null },
        tiles: [],
      },
    })
  })

  it('format 1 (no connection in the overrides) reads as a board on the active connection, and is written back as format 2', async () => {
    const { profileId: _profileId, ...formatOneOverrides } = sampleBoard.overrides
    const formatOne = { ...(JSON.parse(boardFileText(sampleBoard)) as object), version: 1, overrides: formatOneOverrides }
    const read = readBoardDocument(formatOne)
    expect(read).toEqual({ state: 'ok', board: { ...sampleBoard, overrides: { ...formatOneOverrides, profileId: null } } })
    await fs.mkdir(folder, { recursive: true })
    await fs.writeFile(path.join(folder, 'monday-board.json'), JSON.stringify(formatOne))
    const store = open()
    const board = await store.get('Monday board')
    expect(board.overrides.profileId).toBeNull()
    await store.save(board, true)
    const written = JSON.parse(await fs.readFile(path.join(folder, 'monday-board.json'), 'utf8')) as { version: number; overrides: object }
    expect(written).toMatchObject({ version: 2, overrides: { dates: formatOneOverrides.dates, timezone: formatOneOverrides.timezone, profileId: null } })
  })

  it('without a step are refused as a format never written; a failing step says which format it came from', () => {
    expect(readBoardDocument(formatZero)).toEqual({ state: 'invalid', reason: 'its format 0 is not one AdOps Desk ever wrote' })
    const failing = readBoardDocument(formatZero, {
      0: () => {
        throw new Error('no title')
      },
    })
    expect(failing).toEqual({ state: 'invalid', reason: 'it could not be brought up to date from format 0 (no title)' })
  })
})

describe('the boards folder', () => {
  it('renames, duplicates, deletes and restores a board; a taken name is a conflict', async () => {
    const store = open()
    await store.save(sampleBoard, false)
    expect((await failure(store.save({ ...sampleBoard, name: 'monday BOARD' }, false))).code).toBe('conflict')
    const renamed = await store.rename('Monday board', 'Morning board')
    expect(renamed.tiles).toEqual(sampleBoard.tiles)
    expect((await fs.readdir(folder)).sort()).toEqual(['morning-board.json'])
    const copy = await store.duplicate('Morning board')
    expect(copy.name).toBe('Morning board copy')
    await store.delete('Morning board')
    expect((await store.list()).boards.map((board) => board.name)).toEqual(['Morning board copy'])
    const restored = await store.restore('morning board')
    expect(restored.tiles).toEqual(sampleBoard.tiles)
    expect((await open().list()).boards.map((board) => [board.name, board.tiles, board.presets])).toEqual([
      ['Morning board', 2, ['Weekly EU']],
      ['Morning board copy', 2, ['Weekly EU']],
    ])
    expect((await failure(store.restore('Morning board'))).code).toBe('not_found')
  })

  it('picks up a board a teammate dropped into the folder (git pull) at the next listing', async () => {
    const store = open()
    await store.save(sampleBoard, false)
    await fs.writeFile(path.join(folder, 'team.json'), boardFileText({ ...sampleBoard, name: 'Team board' }))
    expect((await store.list()).boards.map((board) => board.name)).toEqual(['Monday board', 'Team board'])
  })
})
