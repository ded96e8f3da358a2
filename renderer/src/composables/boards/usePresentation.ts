import { onBeforeUnmount, ref, watch, type Ref } from 'vue'
import { createAutoRefresh, type AutoRefreshMinutes } from '../../domain/boards/autoRefresh'

/**
 * Presenting an open board: the board alone on the screen (the Fullscreen API when the browser
 * grants it, else a layout over the whole window without the app's chrome), Esc leaves, and an
 * auto-refresh interval that runs the board's own bounded refresh while it is presented.
 */
/** Naive UI's select and dropdown menus and popovers, while they are shown. */
const OPEN_MENU = '.n-base-select-menu, .n-dropdown-menu, .n-popover'

export function usePresentation(target: Ref<HTMLElement | null>, refresh: () => Promise<void>) {
  const presenting = ref(false)
  const minutes = ref<AutoRefreshMinutes | null>(null)
  const auto = createAutoRefresh(refresh)

  async function enter(): Promise<void> {
    presenting.value = true
    // Refused (no user gesture, a kiosk, a test browser): the chrome-less layout is presentation enough.
    await target.value?.requestFullscreen?.().catch(() => undefined)
  }

  function leave(): void {
    presenting.value = false
    minutes.value = null
    auto.stop()
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined)
  }

  // In full screen the browser takes Esc itself and only says full screen ended.
  const onFullscreenChange = () => {
    if (presenting.value && document.fullscreenElement === null) leave()
  }
  // Esc that closes an open menu (the auto-refresh interval's) only closes the menu. Whether one
  // was open is read before the menu handles the key (capture), since by the time the key reaches
  // the window the menu has already closed.
  let menuWasOpen = false
  const beforeKey = (event: KeyboardEvent) => {
    // Naive UI keeps a closed menu in the page, hidden: only one drawn counts.
    if (event.key === 'Escape') menuWasOpen = [...document.querySelectorAll(OPEN_MENU)].some((menu) => menu.getClientRects().length > 0)
  }
  const onKey = (event: KeyboardEvent) => {
    if (presenting.value && event.key === 'Escape' && !menuWasOpen) leave()
  }
  document.addEventListener('fullscreenchange', onFullscreenChange)
  window.addEventListener('keydown', beforeKey, true)
  window.addEventListener('keydown', onKey)
  watch(minutes, (value) => auto.setInterval(presenting.value ? value : null))
  onBeforeUnmount(() => {
    document.removeEventListener('fullscreenchange', onFullscreenChange)
    window.removeEventListener('keydown', beforeKey, true)
    window.removeEventListener('keydown', onKey)
    if (presenting.value) leave()
    auto.stop()
  })

  return { presenting, minutes, enter, leave }
}
