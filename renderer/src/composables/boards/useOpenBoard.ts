import { computed, markRaw, reactive, ref, shallowRef, watch, type Ref } from 'vue'
import {
  boardConnection,
  KEPT_RESULTS_PER_CALL,
  type AudienceView,
  type Board,
  type BoardOverrides,
  type BoardTile,
  type BoardTileView,
  type OpenTile,
  type RunKind,
  type TilePlace,
  type TimeSeriesView,
} from '@contract'
import { api, toApiError, unwrap } from '../../api/bridge'
import { freePlace } from '../../domain/boards/layout'
import { refreshTiles, REFRESH_CONCURRENCY, type TileRefreshStatus } from '../../domain/boards/refresh'
import { useBoardsStore } from '../../stores/boards'
import { useWorkspaceStore } from '../../stores/workspace'

/**
 * What one tile shows now: its last result (kept or fresh), when that ran, and how its refresh
 * goes. The results are held raw (markRaw): the map is reactive for the tile's state, but Vue
 * never wraps 10 lines × 400 values in proxies that the chart's option would then read through.
 */
export interface TileShown {
  chart: TimeSeriesView | null
  audience: AudienceView | null
  ranAt: string | null
  status: TileRefreshStatus | 'idle'
  error: string | null
}

/** A tile is drawn small: a few hundred points per line are all its width can show. */
const TILE_POINT_BUDGET = 400
/** Failures that mean "the platform could not be reached": the board keeps its tiles and says it is offline. */
const UNREACHABLE = new Set(['network', 'timeout'])
const kindOf = (view: BoardTileView): RunKind => (view === 'audience' ? 'audience' : 'chart')
let runs = 0

/**
 * One open board: every tile painted at once from its kept result, then refreshed a few at a
 * time (domain/boards/refresh.ts) with per-tile progress, errors and cancel; offline, the kept
 * tiles stay and the board says so. Layout changes are saved to the board's file as they happen.
 */
export function useOpenBoard(name: Ref<string>) {
  const workspace = useWorkspaceStore()
  const boards = useBoardsStore()
  const board = shallowRef<Board | null>(null)
  const tiles = shallowRef<OpenTile[]>([])
  const shown = reactive(new Map<string, TileShown>())
  const openError = ref<string | null>(null)
  const offline = ref<string | null>(null)
  const refreshing = ref(false)
  let controller: AbortController | null = null
  // The board's own connection when its overrides name one, else the active one.
  const profileId = computed(() => (board.value === null ? null : boardConnection(board.value.overrides, workspace.activeProfileId)))

  const shownOf = (id: string): TileShown => {
    let entry = shown.get(id)
    if (entry === undefined) {
      shown.set(id, { chart: null, audience: null, ranAt: null, status: 'idle', error: null })
      entry = shown.get(id) as TileShown
    }
    return entry
  }

  /**
   * Every tile's kept result in one call to main (results:getMany, a board's tiles fit in one),
   * then all painted in the same update: 12 calls cost 12 round trips through the bridge, each
   * answer its own update of the page. A tile without a kept result waits for its refresh.
   */
  async function paintKept(profile: string): Promise<void> {
    const runnable = tiles.value.filter((tile) => tile.definition !== null)
    for (let start = 0; start < runnable.length; start += KEPT_RESULTS_PER_CALL) {
      const part = runnable.slice(start, start + KEPT_RESULTS_PER_CALL)
      const queries = part.map((tile) => ({
        definition: tile.definition as NonNullable<OpenTile['definition']>,
        preset: tile.preset,
        kind: kindOf(tile.view),
        pointBudget: TILE_POINT_BUDGET,
      }))
      const answers = await unwrap(api().results.getMany({ profileId: profile, queries })).catch(() => [])
      part.forEach((tile, index) => {
        const kept = answers[index] ?? null
        if (kept === null) return
        const entry = shownOf(tile.id)
        entry.ranAt = kept.ranAt
        if (kept.kind === 'chart') entry.chart = markRaw(kept.result)
        else entry.audience = markRaw(kept.result)
      })
    }
  }

  async function open(): Promise<void> {
    cancel()
    openError.value = null
    offline.value = null
    shown.clear()
    try {
      const answer = await unwrap(api().boards.open({ name: name.value }))
      board.value = answer.board
      tiles.value = answer.tiles
    } catch (failure) {
      openError.value = toApiError(failure).message
      return
    }
    const profile = profileId.value
    if (profile === null) return
    // Every kept result at once: the board is painted before anything is asked of the platform.
    await paintKept(profile)
    void refresh()
  }

  async function runTile(tile: OpenTile, profile: string, signal: AbortSignal): Promise<void> {
    if (tile.definition === null) throw { code: 'not_found', message: tile.problem ?? 'This tile cannot run.' }
    const requestId = `board-${tile.id}-${(runs += 1)}`
    const stop = () => void api().requests.cancel({ requestId })
    signal.addEventListener('abort', stop, { once: true })
    try {
      const input = { profileId: profile, definition: tile.definition, preset: tile.preset, requestId }
      const entry = shownOf(tile.id)
      if (tile.view === 'audience') {
        const audience = markRaw(await unwrap(api().reports.audience(input)))
        entry.audience = audience
        entry.ranAt = audience.ranAt
      } else {
        const chart = markRaw(await unwrap(api().reports.run({ ...input, pointBudget: TILE_POINT_BUDGET })))
        entry.chart = chart
        entry.ranAt = chart.ranAt
      }
    } catch (failure) {
      const error = toApiError(failure)
      if (!UNREACHABLE.has(error.code)) throw error
      // The board says it once, with the platform's sentence; each tile only that it kept its result.
      offline.value = error.message
      throw { code: error.code, message: 'Not refreshed: offline.' }
    } finally {
      signal.removeEventListener('abort', stop)
    }
  }

  async function refresh(): Promise<void> {
    const profile = profileId.value
    if (profile === null || refreshing.value) return
    controller = new AbortController()
    refreshing.value = true
    offline.value = null
    const byId = new Map(tiles.value.map((tile) => [tile.id, tile]))
    try {
      await refreshTiles({
        ids: tiles.value.map((tile) => tile.id),
        concurrency: REFRESH_CONCURRENCY.default,
        run: (id, signal) => runTile(byId.get(id) as OpenTile, profile, signal),
        onState: (id, state) => Object.assign(shownOf(id), state),
        wait: (milliseconds, signal) =>
          new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, milliseconds)
            signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true })
          }),
        signal: controller.signal,
      })
    } finally {
      refreshing.value = false
      controller = null
    }
  }

  function cancel(): void {
    controller?.abort()
  }

  /** Saves the board as it is now and opens it again (a new tile's kept result is painted at once). */
  async function saveBoard(next: Board, reopen: boolean): Promise<void> {
    board.value = next
    board.value = await unwrap(api().boards.save({ board: next, replace: true }))
    // The list beside the board counts its tiles.
    void boards.load()
    if (reopen) await open()
  }

  function placeTile(id: string, place: TilePlace): void {
    if (board.value === null) return
    tiles.value = tiles.value.map((tile) => (tile.id === id ? { ...tile, place } : tile))
    void saveBoard({ ...board.value, tiles: board.value.tiles.map((tile) => (tile.id === id ? { ...tile, place } : tile)) }, false)
  }

  async function addPresetTile(preset: string, view: BoardTileView): Promise<void> {
    if (board.value === null) return
    const ids = new Set(board.value.tiles.map((tile) => tile.id))
    let next = board.value.tiles.length + 1
    while (ids.has(`tile-${next}`)) next += 1
    const tile: BoardTile = {
      id: `tile-${next}`,
      title: '',
      source: { kind: 'preset', preset },
      view,
      place: freePlace(board.value.tiles.map((known) => known.place)),
    }
    await saveBoard({ ...board.value, tiles: [...board.value.tiles, tile] }, true)
  }

  /** Saves the board's overrides and opens it again: every tile runs with them. */
  async function setOverrides(overrides: BoardOverrides): Promise<void> {
    if (board.value === null) return
    await saveBoard({ ...board.value, overrides }, true)
  }

  async function removeTile(id: string): Promise<void> {
    if (board.value === null) return
    await saveBoard({ ...board.value, tiles: board.value.tiles.filter((tile) => tile.id !== id) }, true)
  }

  // The board names its connection itself (read when it opens), so only the name and the active connection re-open it.
  watch([name, () => workspace.activeProfileId], () => void open(), { immediate: true })
  return { board, tiles, shown, openError, offline, refreshing, open, refresh, cancel, placeTile, addPresetTile, removeTile, setOverrides, shownOf }
}
