import { onMounted, watch } from 'vue'
import { useDialog, useMessage } from 'naive-ui'
import { errorMessage } from '../../api/bridge'
import { usePresetsStore } from '../../stores/presets'
import { useReportsStore } from '../../stores/reports'
import { focusLineWhenShown } from '../alerts/focusLine'

/**
 * What the confirmation says about the builder's work: a link comes from a web page, so it
 * must not silently replace what the user was building. Null when there is nothing to lose.
 */
export function replacedWork(openPreset: string | null, edited: boolean, building: boolean): string | null {
  if (openPreset !== null && edited) return `Your unsaved changes to “${openPreset}” will be replaced.`
  if (openPreset === null && building) return 'The report in the builder is not saved as a preset: it will be replaced.'
  return null
}

/**
 * `adopsdesk://preset/…` links (now or while Reports is shown): the preset opens and runs only
 * once the user confirms it, told what it replaces. Without a link, or when the user declines,
 * `start` opens the builder as usual (it keeps a report already open). A preset the user chose
 * in the palette opens and runs at once, as a click in the presets list does: no link asked.
 */
export function usePresetLink(start: () => Promise<void>): void {
  const presets = usePresetsStore()
  const reports = useReportsStore()
  const dialog = useDialog()
  const message = useMessage()

  async function open(name: string): Promise<void> {
    try {
      await presets.open(name)
    } catch (error) {
      message.error(`The preset “${name}” could not be opened: ${errorMessage(error)}`)
    }
  }

  function confirm(name: string): void {
    const replaced = replacedWork(presets.current?.name ?? null, presets.edited, reports.definition !== null)
    // Cancel, Esc, the close button and a click beside the dialog all decline, once.
    let settled = false
    const decline = (): void => {
      if (settled) return
      settled = true
      void start()
    }
    dialog.warning({
      title: `Open the preset “${name}”?`,
      content: `A link asks to open the saved report “${name}” and run it.${replaced ? ` ${replaced}` : ''}`,
      positiveText: 'Open and run',
      negativeText: 'Cancel',
      autoFocus: true,
      onPositiveClick: () => {
        settled = true
        void open(name)
      },
      onNegativeClick: decline,
      onClose: decline,
      onEsc: decline,
      onMaskClick: decline,
    })
  }

  /** True when a link was waiting (the dialog is shown). */
  function takeRequested(): boolean {
    const name = presets.takeRequested()
    if (!name) return false
    confirm(name)
    return true
  }

  /** True when a chosen preset was waiting (it is opening). */
  function takePicked(): boolean {
    const chosen = presets.takePicked()
    if (!chosen) return false
    if (chosen.line !== null) focusLineWhenShown(reports, chosen.name, chosen.line)
    void open(chosen.name)
    return true
  }

  onMounted(async () => {
    if (!takePicked() && !takeRequested()) await start()
  })
  watch(
    () => presets.requested,
    (name) => void (name && takeRequested()),
  )
  watch(
    () => presets.picked,
    (name) => void (name && takePicked()),
  )
}
