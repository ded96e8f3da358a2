import type { AudienceView, Board, ReportDefinition, TimeSeriesView } from '@contract'
import { applyBoardOverrides } from '../../main/services/boards/open-board'
import { createBoardStore, boardsFolder } from '../../main/services/boards/board-store'
import { createNotices } from '../../main/services/notices'
import { createPresetStore, presetsFolder } from '../../main/services/presets/preset-store'
import { createResultCache, resultsFolder, type ResultCache } from '../../main/services/results/result-cache'
import { breakdownChart } from './chart-results'
import { sampleDefinition } from './channel-samples'

/**
 * A board of four tiles whose results are kept in a real data folder, as the app keeps them after
 * a refresh: what the board file tests (PDF, PNG, the command line's `--kept`) draw from.
 */
export const KEPT_AT = '2026-11-26T05:00:00.000Z'

export const keptBoard: Board = {
  name: 'Morning delivery',
  description: '',
  savedAt: '2026-11-26T08:00:00.000Z',
  overrides: { dates: { start: '-7d', end: 'yesterday' }, timezone: null },
  tiles: [
    { id: 'a', title: 'Delivery by publisher', source: { kind: 'preset', preset: 'Delivery' }, view: 'chart', place: { x: 0, y: 0, w: 8, h: 4 } },
    { id: 'b', title: 'Impressions now', source: { kind: 'preset', preset: 'Delivery' }, view: 'number', place: { x: 8, y: 0, w: 4, h: 2 } },
    { id: 'c', title: 'Lines table', source: { kind: 'preset', preset: 'Delivery' }, view: 'table', place: { x: 8, y: 2, w: 4, h: 2 } },
    { id: 'd', title: 'Users', source: { kind: 'preset', preset: 'Reach' }, view: 'audience', place: { x: 0, y: 4, w: 6, h: 3 } },
  ],
}

/** An audience result: a week's users, one row. */
export const keptAudience = (ranAt: string): AudienceView => ({
  ranAt,
  durationMs: 5,
  range: { start: '2026-11-19', end: '2026-11-25', timezone: 0, days: 7 },
  source: null,
  rowsLimit: 1_000_000,
  totals: [{ name: 'users', value: 123_456 }],
  confidenceRange: null,
  recordsFound: null,
  daysWithData: 7,
  daysInRange: 7,
  rows: [{ name: ['2026-11-19'], label: 'Wed 19 Nov', values: [{ name: 'users', value: 4_321 }], confidenceRange: null }],
})

/** Saves the board, its presets, and each tile's result kept under `profileId` (the definitions as the board overrides them). */
export async function keepBoard(userDataDir: string, profileId: string, board: Board = keptBoard): Promise<ResultCache> {
  const notices = createNotices()
  const presets = createPresetStore({ folder: presetsFolder(userDataDir), notices })
  const definition: ReportDefinition = { ...sampleDefinition, timezone: { mode: 'os' } }
  await presets.save({ name: 'Delivery', definition }, true)
  await presets.save({ name: 'Reach', definition }, true)
  await createBoardStore({ folder: boardsFolder(userDataDir), notices }).save(board, true)
  const results = createResultCache({ folder: resultsFolder(userDataDir), limitBytes: async () => 64 * 1024 * 1024, notices })
  const overridden = applyBoardOverrides(definition, board.overrides)
  const chart: TimeSeriesView = { ...breakdownChart(), ranAt: KEPT_AT }
  await results.put({ profileId, preset: 'Delivery', definition: overridden, requests: [], kind: 'chart', result: chart })
  await results.put({ profileId, preset: 'Reach', definition: overridden, requests: [], kind: 'audience', result: keptAudience(KEPT_AT) })
  return results
}
