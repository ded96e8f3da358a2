import { describe, expect, it, vi } from 'vitest'
import { svgProblem, type AudienceView, type Board, type CachedResult, type OpenTile, type ReportDefinition, type TimeSeriesView } from '@contract'
import { AppError } from '../../../main/services/errors'
import { createBoardFileMaker, type BoardFileMakerOptions } from '../../../main/services/boards/board-file-maker'
import { BOARD_PAGE, pageHeight, tileBox } from '../../../main/services/boards/board-page-layout'
import { boardPageSvg } from '../../../main/services/boards/board-page-svg'
import { gatherTileData } from '../../../main/services/boards/board-file-data'
import { breakdownChart, singleSeriesChart } from '../../support/chart-results'
import { sampleDefinition } from '../../support/channel-samples'
import { keptAudience } from '../../support/board-pages'

const chart: TimeSeriesView = { ...breakdownChart(), ranAt: '2026-11-26T05:00:00.000Z' }
const audience: AudienceView = keptAudience('2026-11-25T22:00:00.000Z')

const tile = (id: string, view: OpenTile['view'], place: OpenTile['place'], definition: ReportDefinition | null = sampleDefinition): OpenTile => ({
  id,
  title: `Tile ${id}`,
  view,
  place,
  preset: `Preset ${id}`,
  definition,
  problem: definition === null ? `The preset “Preset ${id}” no longer exists. Import it again, or remove this tile.` : null,
})

const board: Board = {
  name: 'Morning delivery',
  description: '',
  savedAt: '2026-11-26T08:00:00.000Z',
  overrides: { dates: { start: '-7d', end: 'yesterday' }, timezone: { mode: 'fixed', offset: 3 } },
  tiles: [
    { id: 'a', title: 'Delivery', source: { kind: 'preset', preset: 'Delivery' }, view: 'chart', place: { x: 0, y: 0, w: 8, h: 4 } },
    { id: 'b', title: 'Total now', source: { kind: 'preset', preset: 'Delivery' }, view: 'number', place: { x: 8, y: 0, w: 4, h: 2 } },
    { id: 'c', title: 'Gone', source: { kind: 'preset', preset: 'Deleted one' }, view: 'table', place: { x: 8, y: 2, w: 4, h: 2 } },
  ],
}

function options(overrides: Partial<BoardFileMakerOptions> = {}): BoardFileMakerOptions {
  return {
    board: async () => board,
    presetDefinition: async (name) => {
      if (name === 'Deleted one') throw new AppError('not_found', 'no such preset')
      return { ...sampleDefinition, timezone: { mode: 'os' } }
    },
    kept: async (_profile, kind): Promise<CachedResult | null> =>
      kind === 'chart' ? { kind: 'chart', preset: 'Delivery', ranAt: chart.ranAt, result: chart } : null,
    run: vi.fn(async () => ({ ...chart, ranAt: '2026-11-26T09:00:00.000Z' })),
    audience: vi.fn(async () => audience),
    connectionName: async (profileId) => (profileId === null ? 'No connection' : 'Demo workspace'),
    now: () => new Date('2026-11-26T09:30:00.000Z'),
    fonts: null,
    ...overrides,
  }
}

describe('a board file: the page', () => {
  it('puts tiles on the 12-column grid as on screen, under the header', () => {
    const inner = BOARD_PAGE.width - 2 * BOARD_PAGE.margin
    const full = tileBox({ x: 0, y: 0, w: 12, h: 1 })
    expect(full).toEqual({ x: BOARD_PAGE.margin, y: BOARD_PAGE.margin + BOARD_PAGE.headerHeight, width: inner, height: BOARD_PAGE.rowHeight })
    const right = tileBox({ x: 6, y: 2, w: 6, h: 3 })
    expect(right.x + right.width).toBeCloseTo(BOARD_PAGE.width - BOARD_PAGE.margin)
    expect(right.x).toBeCloseTo(BOARD_PAGE.margin + (inner + BOARD_PAGE.gap) / 2)
    expect(right.y).toBe(BOARD_PAGE.margin + BOARD_PAGE.headerHeight + 2 * (BOARD_PAGE.rowHeight + BOARD_PAGE.gap))
    expect(right.height).toBe(3 * BOARD_PAGE.rowHeight + 2 * BOARD_PAGE.gap)
    expect(pageHeight([{ x: 6, y: 2, w: 6, h: 3 }])).toBe(Math.ceil(right.y + right.height + BOARD_PAGE.margin))
  })

  it('draws every view from its result, each tile titled and stamped, a missing one with why; nothing external, no script', () => {
    const page = boardPageSvg(
      { board: 'Morning <delivery>', dates: '2026-11-19 – 2026-11-25', connection: 'Demo workspace', madeAt: '2026-11-26T09:30:00.000Z' },
      [
        { tile: tile('chart', 'chart', { x: 0, y: 0, w: 6, h: 4 }), data: { kind: 'chart', result: chart, ranAt: chart.ranAt }, reason: null },
        { tile: tile('table', 'table', { x: 6, y: 0, w: 6, h: 4 }), data: { kind: 'chart', result: chart, ranAt: chart.ranAt }, reason: null },
        { tile: tile('number', 'number', { x: 0, y: 4, w: 4, h: 2 }), data: { kind: 'chart', result: chart, ranAt: chart.ranAt }, reason: null },
        { tile: tile('audience', 'audience', { x: 4, y: 4, w: 4, h: 3 }), data: { kind: 'audience', result: audience, ranAt: audience.ranAt }, reason: null },
        { tile: tile('gone', 'chart', { x: 8, y: 4, w: 4, h: 3 }, null), data: null, reason: 'the preset was deleted.' },
        {
          tile: tile('pivot', 'pivot', { x: 0, y: 7, w: 12, h: 4 }, { ...sampleDefinition, breakdown: ['publisher', 'country'] }),
          data: { kind: 'chart', result: chart, ranAt: chart.ranAt },
          reason: null,
        },
      ],
    )
    expect(svgProblem(page.svg)).toBeNull()
    expect(page.svg).not.toMatch(/<script|href=|url\(\s*['"]?(?!#)/i)
    expect(page.svg).toContain('Morning &lt;delivery&gt;')
    expect(page.svg).toContain('Connection: Demo workspace')
    for (const name of ['chart', 'table', 'number', 'audience', 'gone', 'pivot']) expect(page.svg).toContain(`Tile ${name}`)
    expect(page.svg).toContain('as of 2026-11-26 05:00 UTC')
    expect(page.svg).toMatch(/<path d="M/) // ECharts' lines
    expect(page.svg).toContain('Beta / US') // the table's lines (and the chart's legend)
    expect(page.svg).toContain('Total') // the number's line
    expect(page.svg).toContain('123,456') // the audience's total
    expect(page.svg).toContain('No data: the preset was deleted.')
  })
})

describe('a board file: the data', () => {
  it('reads kept results without running anything, and says why a tile has none', async () => {
    const made = options()
    const file = await createBoardFileMaker(made).make({ board: board.name, format: 'png', profileId: 'p1', refresh: false })
    expect(made.run).not.toHaveBeenCalled()
    expect(file.tiles).toBe(3)
    expect(file.missing).toEqual([{ title: 'Gone', reason: 'The preset “Deleted one” no longer exists. Import it again, or remove this tile.' }])
    expect(file.oldestAsOf).toBe(chart.ranAt)
    expect(file.suggestedName).toBe('Morning delivery 2026-11-26.png')
    expect([...file.bytes.slice(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  })

  it('runs each tile with the board’s overrides applied, as boards:open applies them', async () => {
    const made = options()
    await createBoardFileMaker(made).make({ board: board.name, format: 'png', profileId: 'p1', refresh: true })
    const sent = vi.mocked(made.run).mock.calls.map((call) => call[1])
    expect(sent).toHaveLength(2)
    for (const definition of sent) {
      expect(definition.dates).toEqual({ start: '-7d', end: 'yesterday' })
      expect(definition.timezone).toEqual({ mode: 'fixed', offset: 3 })
    }
  })

  it('waits out a 429 and tries the tile again; a run that fails falls back to the kept result and is listed', async () => {
    let calls = 0
    let clock = 0
    const slept: number[] = []
    const tiles = [tile('a', 'chart', { x: 0, y: 0, w: 6, h: 3 }), tile('b', 'audience', { x: 6, y: 0, w: 6, h: 3 })]
    const printed = await gatherTileData(
      tiles,
      { profileId: 'p1', refresh: true },
      {
        kept: async (_profile, kind) => (kind === 'audience' ? { kind: 'audience', preset: null, ranAt: audience.ranAt, result: audience } : null),
        run: async () => {
          calls += 1
          if (calls === 1) throw new AppError('throttled', 'Too many requests.', { retryAfterSeconds: 2 })
          return singleSeriesChart({ values: [1, 2], ranAt: '2026-11-26T09:00:00.000Z', timezone: 0, durationMs: 1 })
        },
        audience: async () => {
          throw new AppError('network', 'The platform could not be reached.')
        },
        // A fake clock the wait moves on: no real time passes.
        sleep: async (milliseconds) => {
          slept.push(milliseconds)
          clock += milliseconds
        },
        monotonic: () => clock,
      },
      new AbortController().signal,
    )
    expect(calls).toBe(2)
    expect(slept).toEqual([2000])
    expect(printed[0]).toMatchObject({ data: { kind: 'chart', ranAt: '2026-11-26T09:00:00.000Z' }, reason: null })
    expect(printed[1]).toMatchObject({ data: { kind: 'audience', ranAt: audience.ranAt } })
    expect(printed[1]?.reason).toBe('the run failed (The platform could not be reached); it shows its kept result.')
  })

  it('never crashes on text beyond Latin or an emoji, in either format', async () => {
    const named = { ...board, name: 'Доставка 配信 📈' }
    const file = await createBoardFileMaker(options({ board: async () => named })).make({ board: named.name, format: 'pdf', profileId: 'p1', refresh: false })
    expect(Buffer.from(file.bytes.slice(0, 5)).toString('latin1')).toBe('%PDF-')
    const png = await createBoardFileMaker(options({ board: async () => named })).make({ board: named.name, format: 'png', profileId: 'p1', refresh: false })
    expect(png.bytes.length).toBeGreaterThan(1000)
  })
})
