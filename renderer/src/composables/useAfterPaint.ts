import { onScopeDispose, shallowRef, watch, type Ref } from 'vue'
import { browserIdle } from '../lib/idle'

export interface FrameScheduler {
  requestFrame(callback: () => void): number
  cancelFrame(handle: number): void
  later(callback: () => void): void
}

const browserFrames: FrameScheduler = {
  requestFrame: (callback) => requestAnimationFrame(callback),
  cancelFrame: (handle) => cancelAnimationFrame(handle),
  later: (callback) => void setTimeout(callback, 0),
}

/**
 * As `browserFrames`, but after the frame it waits for the page to be idle (a hundred
 * milliseconds at most): for what nobody waits on, so it queues behind whatever the user does
 * next rather than ahead of it (the series table's dimmed rows after a legend toggle, a first
 * chart's legend and table).
 */
export const idleAfterFrame: FrameScheduler = {
  ...browserFrames,
  later: (callback) => void browserIdle(100).request(callback),
}

/**
 * `source` as it was one painted frame ago: for what can follow the screen's main change by a
 * frame without anyone seeing the lag (the series table's dimmed rows after a legend toggle), so
 * re-rendering it does not hold back the frame that shows the change. The first value is
 * immediate; a burst of changes within one frame is applied once, with the newest value.
 */
export function useAfterPaint<T>(source: () => T, frames: FrameScheduler = browserFrames): Readonly<Ref<T>> {
  const value = shallowRef(source())
  let pending: number | null = null
  let disposed = false
  watch(source, () => {
    if (pending !== null) return
    pending = frames.requestFrame(() =>
      // The frame's callbacks run before it is drawn: a task after them runs once it has been.
      frames.later(() => {
        pending = null
        if (!disposed) value.value = source()
      }),
    )
  })
  onScopeDispose(() => {
    disposed = true
    if (pending !== null) frames.cancelFrame(pending)
  })
  return value
}
