import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { Board, BoardFileFormat, BoardSummary, FileProblem } from '@contract'
import { api, toApiError, unwrap, type ApiError } from '../api/bridge'
import { useNavigationStore } from './navigation'

/** The words a board is found by: its name, description and the presets on it. */
export const boardSearchText = (board: BoardSummary): string => [board.name, board.description, ...board.presets].join(' ').toLowerCase()

/**
 * The boards main keeps on disk, the one open in the Boards view, and a board asked for from
 * elsewhere (the palette, an `adopsdesk://board/…` link) that the view opens when it is shown.
 */
export const useBoardsStore = defineStore('boards', () => {
  const boards = shallowRef<readonly BoardSummary[]>([])
  const refused = ref<FileProblem[]>([])
  const search = ref('')
  const error = shallowRef<ApiError | null>(null)
  const loaded = ref(false)
  /** The board the view shows; null: the list alone. */
  const openName = ref<string | null>(null)

  const filtered = computed(() => {
    const words = search.value.trim().toLowerCase().split(/\s+/).filter(Boolean)
    if (words.length === 0) return boards.value
    return boards.value.filter((board) => words.every((word) => boardSearchText(board).includes(word)))
  })

  async function load(): Promise<void> {
    try {
      const answer = await unwrap(api().boards.list({}))
      boards.value = answer.boards
      refused.value = answer.refused
      error.value = null
    } catch (failure) {
      error.value = toApiError(failure)
    } finally {
      loaded.value = true
    }
  }

  async function create(name: string): Promise<Board> {
    const board = await unwrap(
      api().boards.save({
        board: { name, description: '', savedAt: new Date().toISOString(), overrides: { dates: null, timezone: null }, tiles: [] },
        replace: false,
      }),
    )
    await load()
    openName.value = board.name
    return board
  }

  async function duplicate(name: string): Promise<Board> {
    const copy = await unwrap(api().boards.duplicate({ name }))
    await load()
    return copy
  }

  async function rename(name: string, newName: string): Promise<Board> {
    const renamed = await unwrap(api().boards.rename({ name, newName }))
    if (openName.value === name) openName.value = renamed.name
    await load()
    return renamed
  }

  /** Main keeps the deleted board restorable until the app quits: the caller offers Undo. */
  async function remove(name: string): Promise<void> {
    await unwrap(api().boards.delete({ name }))
    if (openName.value === name) openName.value = null
    await load()
  }

  async function restore(name: string): Promise<void> {
    await unwrap(api().boards.restore({ name }))
    await load()
  }

  async function importFile() {
    const answer = await unwrap(api().boards.import({}))
    if (!answer.cancelled) await load()
    return answer
  }

  const exportFile = (name: string) => unwrap(api().boards.export({ name }))
  /** The board as a PDF or PNG page, drawn by main (no path crosses: main asks where). */
  const exportPage = (name: string, format: BoardFileFormat) => unwrap(api().boards.exportFile({ name, format }))

  let listening = false
  /** Once, at app start: a board link (`onOpenBoard`) switches to Boards and opens the board there. */
  function listen(): void {
    if (listening) return
    listening = true
    api().onOpenBoard(({ name }) => show(name))
  }

  /** Opens a board from anywhere (the palette, a link): the Boards section shows it. */
  function show(name: string): void {
    openName.value = name
    useNavigationStore().open('boards')
  }

  return {
    boards,
    refused,
    search,
    error,
    loaded,
    openName,
    filtered,
    load,
    create,
    duplicate,
    rename,
    remove,
    restore,
    importFile,
    exportFile,
    exportPage,
    show,
    listen,
  }
})
