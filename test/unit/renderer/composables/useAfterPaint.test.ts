import { describe, expect, it } from 'vitest'
import { effectScope, nextTick, ref } from 'vue'
import { useAfterPaint, type FrameScheduler } from '../../../../renderer/src/composables/useAfterPaint'

/** Frames and tasks the test runs by hand, in the order a browser would. */
function manualFrames() {
  let frames: Array<{ handle: number; callback: () => void }> = []
  const tasks: Array<() => void> = []
  let next = 1
  const scheduler: FrameScheduler = {
    requestFrame: (callback) => (frames.push({ handle: next, callback }), next++),
    cancelFrame: (handle) => void (frames = frames.filter((frame) => frame.handle !== handle)),
    later: (callback) => void tasks.push(callback),
  }
  return {
    scheduler,
    frame: () => frames.splice(0).forEach((frame) => frame.callback()),
    tasks: () => tasks.splice(0).forEach((task) => task()),
    waiting: () => frames.length + tasks.length,
  }
}

describe('useAfterPaint', () => {
  it('starts with the value, and follows a burst of changes once, after the frame has been drawn', async () => {
    const frames = manualFrames()
    const source = ref(['a'])
    const scope = effectScope()
    const late = scope.run(() => useAfterPaint(() => source.value, frames.scheduler))
    expect(late?.value).toEqual(['a'])
    source.value = ['a', 'b']
    await nextTick()
    source.value = ['c']
    await nextTick()
    expect(late?.value).toEqual(['a'])
    frames.frame()
    // The frame's own callbacks ran; the frame is drawn after them, and only then does the value follow.
    expect(late?.value).toEqual(['a'])
    frames.tasks()
    expect(late?.value).toEqual(['c'])
    expect(frames.waiting()).toBe(0)
    scope.stop()
  })

  it('asks for nothing more once its component is gone', async () => {
    const frames = manualFrames()
    const source = ref(1)
    const scope = effectScope()
    const late = scope.run(() => useAfterPaint(() => source.value, frames.scheduler))
    source.value = 2
    await nextTick()
    scope.stop()
    expect(frames.waiting()).toBe(0)
    expect(late?.value).toBe(1)
  })
})
