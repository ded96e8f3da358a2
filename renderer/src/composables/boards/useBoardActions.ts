import { h } from 'vue'
import { NButton, useMessage } from 'naive-ui'
import type { BoardFileFormat } from '@contract'
import { errorMessage } from '../../api/bridge'
import { useBoardsStore } from '../../stores/boards'

/**
 * What the boards list does, each with its own message: new, duplicate, rename, delete with
 * Undo (main keeps a deleted board until quit), import and export (main opens the dialogs).
 * Failures become a message, never an unhandled rejection.
 */
export function useBoardActions() {
  const store = useBoardsStore()
  const message = useMessage()

  async function attempt(work: () => Promise<void>): Promise<boolean> {
    try {
      await work()
      return true
    } catch (error) {
      message.error(errorMessage(error))
      return false
    }
  }

  const create = (name: string) => attempt(async () => void (await store.create(name)))
  const rename = (name: string, newName: string) => attempt(async () => void (await store.rename(name, newName)))
  const duplicate = (name: string) => attempt(async () => void message.success(`Saved “${(await store.duplicate(name)).name}”.`))

  const remove = (name: string) =>
    attempt(async () => {
      await store.remove(name)
      const notice = message.info(
        () =>
          h('span', { 'data-test': 'board-deleted-notice' }, [
            `Deleted “${name}”. `,
            h(
              NButton,
              {
                text: true,
                type: 'primary',
                'data-test': 'board-undo-delete',
                onClick: () => {
                  notice.destroy()
                  void attempt(() => store.restore(name))
                },
              },
              () => 'Undo',
            ),
          ]),
        { duration: 10_000, closable: true },
      )
    })

  const exportBoard = (name: string) =>
    attempt(async () => {
      const answer = await store.exportFile(name)
      if (answer.saved)
        message.success(`Exported “${name}” with ${answer.presets} preset${answer.presets === 1 ? '' : 's'} to ${answer.fileName ?? 'the file'}.`)
    })

  /** The open board drawn by main as a PDF or PNG page from its kept results; tiles without data are named. */
  const exportPage = (name: string, format: BoardFileFormat) =>
    attempt(async () => {
      const answer = await store.exportPage(name, format)
      if (!answer.saved) return
      message.success(`Saved “${name}” as ${answer.fileName ?? 'the file'}.`)
      if (answer.missing.length > 0)
        message.warning(
          `${answer.missing.length} tile${answer.missing.length === 1 ? '' : 's'} had no data: ${answer.missing.map((tile) => `“${tile.title}”: ${tile.reason}`).join(' ')}`,
          {
            duration: 10_000,
          },
        )
    })

  const importBoard = () =>
    attempt(async () => {
      const answer = await store.importFile()
      if (answer.cancelled || answer.board === null) return
      message.success(`Imported the board “${answer.board.name}”${answer.presets.length ? ` with ${answer.presets.join(', ')}` : ''}.`, { duration: 6_000 })
      for (const skipped of answer.skipped) message.warning(skipped.reason, { duration: 8_000 })
      store.openName = answer.board.name
    })

  return { create, rename, duplicate, remove, exportBoard, exportPage, importBoard }
}
