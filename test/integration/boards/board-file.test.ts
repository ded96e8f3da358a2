import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { promises as nodeFs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createBoardFileMaker } from '../../../main/services/boards/board-file-maker'
import type { ExportJob } from '@contract'
import { createBoardPages, saveBoardFile } from '../../../main/services/boards/board-file-save'
import { createBoardStore, boardsFolder } from '../../../main/services/boards/board-store'
import type { BoardFileMaker } from '../../../main/services/boards/board-file-types'
import { createEventHub } from '../../../main/services/events'
import { createExportJobHistory } from '../../../main/services/exports/job-history'
import { createExportService } from '../../../main/services/exports/jobs'
import { createNotices } from '../../../main/services/notices'
import { createPresetStore, presetsFolder } from '../../../main/services/presets/preset-store'
import type { ResultCache } from '../../../main/services/results/result-cache'
import { keepBoard, keptBoard } from '../../support/board-pages'
import { pdfText } from '../../support/pdf-text'

let userData: string
let results: ResultCache
let maker: BoardFileMaker

beforeAll(async () => {
  userData = await mkdtemp(path.join(os.tmpdir(), 'adops-board-file-'))
  results = await keepBoard(userData, 'p1')
  const notices = createNotices()
  const boards = createBoardStore({ folder: boardsFolder(userData), notices })
  const presets = createPresetStore({ folder: presetsFolder(userData), notices })
  maker = createBoardFileMaker({
    board: (name) => boards.get(name),
    presetDefinition: async (name) => (await presets.get(name)).definition,
    kept: (profileId, kind, definition, preset) => results.get(profileId, kind, definition, preset),
    run: async () => {
      throw new Error('a kept board file runs nothing')
    },
    audience: async () => {
      throw new Error('a kept board file runs nothing')
    },
    connectionName: async () => 'Demo workspace',
    now: () => new Date('2026-11-26T09:30:00.000Z'),
  })
})
afterAll(async () => {
  // The cache notes when a result was last read on its serial queue: wait for it before removing the folder.
  await results.usage()
  await rm(userData, { recursive: true, force: true, maxRetries: 5 })
})

describe('a board file from kept results', () => {
  it('is a one-page PDF with the board, each tile’s title and its “as of” stamp, as text', async () => {
    const file = await maker.make({ board: keptBoard.name, format: 'pdf', profileId: 'p1', refresh: false })
    expect(file.missing).toEqual([])
    const read = await pdfText(file.bytes)
    expect(read.pages).toBe(1)
    expect(read.title).toBe('Morning delivery')
    const text = read.text.replace(/\s+/g, ' ')
    expect(text).toContain('Morning delivery')
    expect(text).toContain('Connection: Demo workspace')
    for (const tile of keptBoard.tiles) expect(text).toContain(tile.title)
    expect(text).toContain('as of 2026-11-26 05:00 UTC')
    expect(text).toContain('123,456')
  })

  it('is a PNG at twice the page’s size', async () => {
    const file = await maker.make({ board: keptBoard.name, format: 'png', profileId: 'p1', refresh: false })
    const bytes = Buffer.from(file.bytes)
    expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    expect(bytes.subarray(12, 16).toString('latin1')).toBe('IHDR')
    expect(bytes.readUInt32BE(16)).toBe(2 * 1280)
    expect(bytes.readUInt32BE(20)).toBeGreaterThan(2 * 400)
  })

  it('is written whole or not at all: a failing write leaves no file and no temp', async () => {
    const folder = path.join(userData, 'exports')
    await nodeFs.mkdir(folder, { recursive: true })
    const dialog = { chooseSavePath: async (name: string) => path.join(folder, name) }
    const failing = { ...nodeFs, rename: async () => Promise.reject(Object.assign(new Error('disk full'), { code: 'ENOSPC' })) }
    await expect(saveBoardFile(maker, dialog, { board: keptBoard.name, format: 'pdf', profileId: 'p1' }, failing)).rejects.toThrow(
      /could not be written in exports/,
    )
    expect(await readdir(folder)).toEqual([])
    const saved = await saveBoardFile(maker, dialog, { board: keptBoard.name, format: 'pdf', profileId: 'p1' })
    expect(saved).toEqual({ saved: true, fileName: 'Morning delivery 2026-11-26.pdf', missing: [] })
    expect(await readdir(folder)).toEqual(['Morning delivery 2026-11-26.pdf'])
  })
})

describe('a board file saved from the board’s menu', () => {
  it('is listed in Exports beside the other files, with its board, format and size (issue 39)', async () => {
    const folder = path.join(userData, 'listed')
    await nodeFs.mkdir(folder, { recursive: true })
    const events = createEventHub()
    const done: ExportJob[] = []
    events.subscribe((event, payload) => {
      if (event === 'onExportDone') done.push(payload as ExportJob)
    })
    const unused = async (): Promise<never> => {
      throw new Error('a board file asks the platform for nothing')
    }
    const exports = createExportService({
      reportingOf: unused,
      infoOf: unused,
      presetOf: unused,
      dialog: { chooseSavePath: async () => null },
      jobHistory: createExportJobHistory(path.join(userData, 'export-history.json'), createNotices()),
      events,
      notices: createNotices(),
    })
    const pages = createBoardPages(maker, { chooseSavePath: async (name: string) => path.join(folder, name) }, async () => 'p1', exports.recordFile)
    for (const format of ['pdf', 'png'] as const) expect((await pages.saveAs(keptBoard.name, format)).saved).toBe(true)
    const listed = await exports.list()
    expect(listed.map((job) => [job.fileName, job.format, job.state, job.board])).toEqual([
      ['Morning delivery 2026-11-26.png', 'png', 'done', 'Morning delivery'],
      ['Morning delivery 2026-11-26.pdf', 'pdf', 'done', 'Morning delivery'],
    ])
    const pdf = listed[1]
    expect(pdf?.bytes).toBe((await nodeFs.stat(path.join(folder, 'Morning delivery 2026-11-26.pdf'))).size)
    expect(pdf?.folderName).toBe('listed')
    // The page hears of each at once, as of a finished export; and a file listed can be opened again by its id.
    expect(done.map((job) => job.fileName)).toEqual(['Morning delivery 2026-11-26.pdf', 'Morning delivery 2026-11-26.png'])
    expect(await exports.finishedFile(pdf?.id ?? '')).toBe(path.join(folder, 'Morning delivery 2026-11-26.pdf'))
    await expect(exports.preview(pdf?.id ?? '')).rejects.toThrow(/Only csv and tsv files are previewed/)
  })
})
