import { h } from 'vue'
import { NButton, useMessage } from 'naive-ui'
import { errorMessage } from '../../api/bridge'
import { usePresetsStore } from '../../stores/presets'

/**
 * What the presets panel does with a preset or with files, each with its own message: open,
 * duplicate, delete with Undo, import and export (main opens the dialogs). Failures become a
 * message, never an unhandled rejection.
 */
export function usePresetActions() {
  const store = usePresetsStore()
  const message = useMessage()

  async function attempt(work: () => Promise<void>): Promise<void> {
    try {
      await work()
    } catch (error) {
      message.error(errorMessage(error))
    }
  }

  const open = (name: string): Promise<void> => attempt(() => store.open(name))

  const duplicate = (name: string): Promise<void> => attempt(async () => void message.success(`Saved “${(await store.duplicate(name)).name}”.`))

  /** Deleting is one click; the notification's Undo brings it back (main keeps it until quit). */
  const remove = (name: string): Promise<void> =>
    attempt(async () => {
      await store.remove(name)
      const notice = message.info(
        () =>
          h('span', { 'data-test': 'deleted-notice' }, [
            `Deleted “${name}”. `,
            h(
              NButton,
              {
                text: true,
                type: 'primary',
                'data-test': 'undo-delete',
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

  const exportNames = (names: string[]): Promise<void> =>
    attempt(async () => {
      const answer = await store.exportFile(names)
      if (answer.saved) message.success(`Exported ${answer.count} preset${answer.count === 1 ? '' : 's'} to ${answer.fileName ?? 'the file'}.`)
    })

  const importFiles = (): Promise<void> =>
    attempt(async () => {
      const answer = await store.importFiles()
      if (answer.cancelled) return
      const names = answer.imported.map((preset) => preset.name)
      if (names.length) message.success(`Imported ${names.join(', ')}.`, { duration: 6_000 })
      else if (answer.skipped.length === 0) message.info('The files held no presets.')
      // Main's reasons already name their file.
      for (const skipped of answer.skipped) message.warning(skipped.reason, { duration: 8_000 })
    })

  return { attempt, open, duplicate, remove, exportNames, importFiles }
}
