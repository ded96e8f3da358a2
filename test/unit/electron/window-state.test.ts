import { promises as fs } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { createNotices } from '../../../main/services/notices'
import {
  createWindowStateStore,
  placeWindow,
  trackWindowState,
  workAreasOf,
  type Rectangle,
  type Scheduler,
  type TrackedWindow,
  type WindowState,
} from '../../../main/electron/window-state'
import { createFakeElectron } from '../../support/fake-electron'
import { temporaryFolder } from '../../support/services'

const size = { width: 1320, height: 860, minWidth: 960, minHeight: 620 }
const laptop: Rectangle = { x: 0, y: 0, width: 1440, height: 875 }
// A monitor to the laptop's right, taller and wider.
const monitor: Rectangle = { x: 1440, y: -200, width: 2560, height: 1415 }
const saved = (bounds: Rectangle, maximized = false): WindowState => ({ version: 1, bounds, maximized })

describe('where the window opens', () => {
  it('opens at the default size, centred by Electron, the first time', () => {
    expect(placeWindow(null, [laptop], size)).toEqual({ bounds: { width: 1320, height: 860 }, maximized: false })
  })

  it('opens where it was when that is still on a screen', () => {
    const onMonitor = { x: 2000, y: 100, width: 1600, height: 1000 }
    expect(placeWindow(saved(onMonitor, true), [laptop, monitor], size)).toEqual({ bounds: onMonitor, maximized: true })
  })

  it('comes back to the primary screen when its monitor is gone, centred and at a size that fits', () => {
    const onMonitor = { x: 2000, y: 100, width: 1600, height: 1000 }
    // Unplugged: only the laptop's screen is left.
    const placed = placeWindow(saved(onMonitor), [laptop], size)
    expect(placed.bounds).toEqual({ x: 0, y: 0, width: 1440, height: 875 })
    const smaller = placeWindow(saved({ x: 3000, y: 900, width: 1000, height: 700 }), [laptop], size)
    expect(smaller.bounds).toEqual({ x: 220, y: 88, width: 1000, height: 700 })
  })

  it("shrinks a window larger than its screen's work area and moves a half-visible one fully onto it", () => {
    expect(placeWindow(saved({ x: 100, y: 50, width: 3000, height: 2000 }), [laptop], size).bounds).toEqual({ x: 0, y: 0, width: 1440, height: 875 })
    // Mostly off the right edge, but its title bar can still be grabbed: slid back in.
    expect(placeWindow(saved({ x: 1200, y: 300, width: 1000, height: 700 }), [laptop], size).bounds).toEqual({ x: 440, y: 175, width: 1000, height: 700 })
  })

  it("counts a window as off screen when less than its title bar's grip is visible", () => {
    // 20 px of it peek out at the bottom right corner: not enough to grab.
    const placed = placeWindow(saved({ x: 1420, y: 855, width: 1000, height: 700 }), [laptop], size)
    expect(placed.bounds).toEqual({ x: 220, y: 88, width: 1000, height: 700 })
  })

  it('never makes a window smaller than its minimum unless the screen is', () => {
    expect(placeWindow(saved({ x: 10, y: 10, width: 400, height: 300 }), [laptop], size).bounds).toEqual({ x: 10, y: 10, width: 960, height: 620 })
    const tiny = { x: 0, y: 0, width: 800, height: 600 }
    expect(placeWindow(saved({ x: 0, y: 0, width: 1320, height: 860 }), [tiny], size).bounds).toEqual({ x: 0, y: 0, width: 800, height: 600 })
  })

  it('reads the screens from Electron, the primary first', () => {
    const fake = createFakeElectron('/unused', { displays: [laptop, monitor] })
    expect(workAreasOf(fake.electron.screen)).toEqual([laptop, monitor])
  })
})

/** A window that reports what the test sets, and whose events the test fires. */
function fakeWindow() {
  const listeners = new Map<string, Array<() => void>>()
  const state = { bounds: { x: 10, y: 20, width: 1000, height: 700 }, maximized: false }
  const window: TrackedWindow = {
    on: ((event: string, listener: () => void) => {
      listeners.set(event, [...(listeners.get(event) ?? []), listener])
      return window
    }) as TrackedWindow['on'],
    getNormalBounds: () => ({ ...state.bounds }),
    isMaximized: () => state.maximized,
    isDestroyed: () => false,
  }
  const fire = (event: string): void => {
    for (const listener of listeners.get(event) ?? []) listener()
  }
  return { window, state, fire }
}

/** Timers the test runs by hand. */
function manualScheduler(): Scheduler & { pending: () => number; runAll: () => void } {
  let queue: Array<{ work: () => void; cancelled: boolean }> = []
  return {
    later(work) {
      const entry = { work, cancelled: false }
      queue.push(entry)
      return () => {
        entry.cancelled = true
      }
    },
    pending: () => queue.filter((entry) => !entry.cancelled).length,
    runAll() {
      const due = queue.filter((entry) => !entry.cancelled)
      queue = []
      for (const entry of due) entry.work()
    },
  }
}

describe("saving the window's state", () => {
  it('saves once the user stops moving, normal bounds and maximised state, and restores them on the next start', async () => {
    const folder = await temporaryFolder()
    const store = createWindowStateStore(folder, createNotices())
    const { window, state, fire } = fakeWindow()
    const scheduler = manualScheduler()
    const tracker = trackWindowState(window, store, { scheduler })

    state.bounds = { x: 200, y: 100, width: 1100, height: 720 }
    for (let step = 0; step < 10; step += 1) fire('move')
    fire('resize')
    // One save pending however many events came, and nothing written until it runs.
    expect(scheduler.pending()).toBe(1)
    await expect(fs.access(path.join(folder, 'window-state.json'))).rejects.toThrow()
    scheduler.runAll()
    await tracker.flush()
    state.maximized = true
    fire('maximize')
    scheduler.runAll()
    await tracker.flush()

    const next = createWindowStateStore(folder, createNotices())
    expect(await next.read()).toEqual({ version: 1, bounds: { x: 200, y: 100, width: 1100, height: 720 }, maximized: true })
  })

  it('saves at once when the window closes', async () => {
    const folder = await temporaryFolder()
    const store = createWindowStateStore(folder, createNotices())
    const { window, state, fire } = fakeWindow()
    const tracker = trackWindowState(window, store, { scheduler: manualScheduler() })
    state.bounds = { x: 5, y: 6, width: 1000, height: 700 }
    fire('resize')
    fire('close')
    await tracker.flush()
    expect(JSON.parse(await fs.readFile(path.join(folder, 'window-state.json'), 'utf8'))).toMatchObject({ bounds: { x: 5, y: 6 } })
  })

  it('opens at the default size after a corrupt state file, which is moved aside and reported', async () => {
    const folder = await temporaryFolder()
    await fs.writeFile(path.join(folder, 'window-state.json'), '{"version":1,"bounds":')
    const notices = createNotices()
    const store = createWindowStateStore(folder, notices)
    expect(placeWindow(await store.read(), [laptop], size)).toEqual({ bounds: { width: 1320, height: 860 }, maximized: false })
    expect(notices.list()).toEqual([expect.objectContaining({ level: 'info', message: expect.stringContaining('size and position could not be read') })])
  })
})
