import type { AudienceView, CachedResult, OpenTile, ReportDefinition, RunKind, TimeSeriesView } from '@contract'
import { pointBudget } from '../../../common/charts/chart-option'
import { createThrottleGate, realSleep, throughGate, type Sleep } from '../bulk/throttle-gate'
import { isAppError } from '../errors'
import { reduceKeptChart } from '../results/kept-chart'
import { tileBox } from './board-page-layout'
import type { BoardTileData, PrintedTile } from './board-tile-svg'

/**
 * Each tile's result for a board file: its kept result (what the board opens from), or with
 * `refresh` a run against the connection first, 3 tiles at a time behind one 429 gate (every
 * worker waits out the platform's Retry-After, as the board's own refresh does). A run that
 * fails falls back to the kept result, and the tile says why either way.
 */

export interface BoardDataSources {
  kept(profileId: string, kind: RunKind, definition: ReportDefinition, preset: string | null): Promise<CachedResult | null>
  run(profileId: string, definition: ReportDefinition, options: { signal: AbortSignal; preset: string | null; pointBudget: number }): Promise<TimeSeriesView>
  audience(profileId: string, definition: ReportDefinition, options: { signal: AbortSignal; preset: string | null }): Promise<AudienceView>
  /** Waits out a 429 (a test passes a fake one). */
  sleep?: Sleep
  monotonic?: () => number
}

export const BOARD_FILE_CONCURRENCY = 3

/** A chart cut to a point per pixel column of its tile on the page, as a live tile is. */
const budgetOf = (tile: OpenTile): number => pointBudget(tileBox(tile.place).width)

function keptData(kept: CachedResult | null, tile: OpenTile): BoardTileData | null {
  if (kept === null) return null
  return kept.kind === 'chart'
    ? { kind: 'chart', result: reduceKeptChart(kept.result, budgetOf(tile)), ranAt: kept.ranAt }
    : { kind: 'audience', result: kept.result, ranAt: kept.ranAt }
}

const sentence = (error: unknown): string => (error instanceof Error ? error.message : String(error)).trim().replace(/\.$/, '')

export async function gatherTileData(
  tiles: readonly OpenTile[],
  request: { profileId: string | null; refresh: boolean },
  sources: BoardDataSources,
  signal: AbortSignal,
): Promise<PrintedTile[]> {
  const gate = createThrottleGate(sources.monotonic ?? (() => performance.now()), sources.sleep ?? realSleep)
  const { profileId } = request

  async function one(tile: OpenTile): Promise<PrintedTile> {
    if (tile.definition === null) return { tile, data: null, reason: tile.problem ?? 'it has no report to run.' }
    if (profileId === null) return { tile, data: null, reason: 'no connection was chosen, so neither a run nor a kept result could be read.' }
    const definition = tile.definition
    const kind: RunKind = tile.view === 'audience' ? 'audience' : 'chart'
    const kept = async () => keptData(await sources.kept(profileId, kind, definition, tile.preset), tile)
    if (!request.refresh) {
      const data = await kept()
      return { tile, data, reason: data === null ? 'no result is kept for it yet. Refresh the board in the app, or export it with a run.' : null }
    }
    try {
      const data = await throughGate(gate, signal, async (): Promise<BoardTileData> => {
        if (kind === 'audience') {
          const result = await sources.audience(profileId, definition, { signal, preset: tile.preset })
          return { kind, result, ranAt: result.ranAt }
        }
        const result = await sources.run(profileId, definition, { signal, preset: tile.preset, pointBudget: budgetOf(tile) })
        return { kind, result, ranAt: result.ranAt }
      })
      return { tile, data, reason: null }
    } catch (error) {
      if (signal.aborted || (isAppError(error) && error.code === 'cancelled')) throw error
      const data = await kept()
      const why = `the run failed (${sentence(error)})`
      return { tile, data, reason: data === null ? `${why}, and no result is kept for it.` : `${why}; it shows its kept result.` }
    }
  }

  const printed: PrintedTile[] = new Array(tiles.length)
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < tiles.length && !signal.aborted) {
      const index = next++
      printed[index] = await one(tiles[index] as OpenTile)
    }
  }
  await Promise.all(Array.from({ length: Math.min(BOARD_FILE_CONCURRENCY, tiles.length) }, worker))
  if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('The board file was cancelled.')
  return printed
}
