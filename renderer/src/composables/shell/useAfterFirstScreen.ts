import { watch } from 'vue'

/** Runs work later: given to what can wait for the first screen. */
export type AfterFirstScreen = (work: () => void) => void

/**
 * Work the first screen does not show (the rail's badges, the export jobs' list) runs once the
 * shell is ready and that screen has had its frame: its calls to main then no longer queue ahead
 * of the ones the first screen waits for (traced in the startup bench: the web host answered
 * them first, and the first screen's own calls waited behind them).
 */
export function useAfterFirstScreen(ready: () => boolean, frame: (callback: () => void) => void = nextFrame): AfterFirstScreen {
  const waiting: Array<() => void> = []
  let flushed = false
  const flush = (): void => {
    flushed = true
    for (const work of waiting.splice(0)) work()
  }
  const shown = (): void => frame(flush)
  if (ready()) shown()
  else {
    const stop = watch(ready, (isReady) => {
      if (!isReady) return
      stop()
      shown()
    })
  }
  return (work) => {
    if (flushed) frame(work)
    else waiting.push(work)
  }
}

/** After the next paint: a frame, then a task, so the paint is not held up by the work. */
function nextFrame(callback: () => void): void {
  requestAnimationFrame(() => setTimeout(callback))
}
