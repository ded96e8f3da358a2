import { onBeforeUnmount, watch } from 'vue'
import type { MenuCommandId } from '@contract'
import { handleCommand, type CommandHandler } from '../../shell/commands'
import { useIsActive } from '../useWhileActive'

/**
 * Handles a command only while a condition holds (Save while a form is open), so the palette
 * does not offer it and its keys stay the browser's the rest of the time; and only while its
 * screen is shown (a view kept alive in the background hands its commands back).
 */
export function useCommandWhile(id: MenuCommandId, enabled: () => boolean, handler: CommandHandler): void {
  let remove: (() => void) | undefined
  const active = useIsActive()
  const stop = watch(
    () => active.value && enabled(),
    (on) => {
      remove?.()
      remove = on ? handleCommand(id, handler) : undefined
    },
    { immediate: true },
  )
  onBeforeUnmount(() => {
    stop()
    remove?.()
  })
}
