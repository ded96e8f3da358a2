import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createBoardStore, boardsFolder } from '../../../main/services/boards/board-store'
import { createNotices } from '../../../main/services/notices'
import { sampleBoard } from '../../support/channel-samples'
import { expectSuccess, memoryKeychain, runInProcess, testServices } from './support'

let userData: string
const services = testServices(memoryKeychain())
const cli = (argv: string[]) => runInProcess(['--user-data', userData, ...argv], { services })

beforeAll(async () => {
  userData = await mkdtemp(path.join(os.tmpdir(), 'adops-cli-boards-'))
  const boards = createBoardStore({ folder: boardsFolder(userData), notices: createNotices() })
  await boards.save(sampleBoard, false)
  await boards.save({ ...sampleBoard, name: 'Empty board', description: '', tiles: [] }, false)
})
afterAll(async () => {
  await rm(userData, { recursive: true, force: true })
})

describe('boards list', () => {
  it('lists the saved boards as JSON and CSV, without connecting', async () => {
    const run = await cli(['boards', 'list'])
    expectSuccess(run)
    expect(
      (JSON.parse(run.stdout) as Array<{ name: string; tiles: number; presets: string[] }>).map(({ name, tiles, presets }) => [name, tiles, presets]),
    ).toEqual([
      ['Empty board', 0, []],
      ['Monday board', 2, ['Weekly EU']],
    ])
    const csv = await cli(['boards', 'list', '--format', 'csv'])
    expectSuccess(csv)
    expect(csv.stdout.split(/\r?\n/)[0]).toBe('name,tiles,presets,saved_at,description')
    expect(csv.stdout).toContain('Monday board,2,Weekly EU,')
  })

  it('says what it does under --help', async () => {
    const run = await cli(['boards', 'list', '--help'])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('Boards live in the "boards" folder')
  })
})
