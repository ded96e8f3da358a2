import path from 'node:path'
import type { BrowserWindow, Rectangle, Screen } from 'electron'
import { z } from 'zod'
import { createDocumentStore, noticeOnCorrupt, type DocumentStore } from '../services/files/document-store'
import type { Notices } from '../services/notices'
import type { WindowPlacement } from './window'

export type { Rectangle }

const rectangle = z.object({ x: z.number().int(), y: z.number().int(), width: z.number().int().positive(), height: z.number().int().positive() })
const windowStateSchema = z.object({
  version: z.literal(1),
  /** The window's normal (not maximised) bounds; null before the first save. */
  bounds: rectangle.nullable(),
  maximized: z.boolean(),
})
export type WindowState = z.infer<typeof windowStateSchema>

export type { WindowPlacement }

export interface WindowSize {
  width: number
  height: number
  minWidth: number
  minHeight: number
}

/** How much of a window must be on a display to count as there: enough of the title bar to grab. */
const GRABBABLE = { width: 100, height: 40 }

function overlap(a: Rectangle, b: Rectangle): { width: number; height: number } {
  return {
    width: Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)),
    height: Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)),
  }
}

const clamp = (value: number, low: number, high: number): number => Math.min(Math.max(value, low), Math.max(low, high))

/**
 * Where to open the window, from what was saved and the screens there are now (their work
 * areas, the primary first). A window that would be off every screen (a monitor unplugged, a
 * resolution lowered) is centred on the primary one; one larger than its screen's work area is
 * shrunk to fit; one partly off its screen is moved fully onto it.
 */
export function placeWindow(saved: WindowState | null, workAreas: readonly Rectangle[], size: WindowSize): WindowPlacement {
  const maximized = saved?.maximized ?? false
  const primary = workAreas[0]
  if (!saved?.bounds || primary === undefined) return { bounds: { width: size.width, height: size.height }, maximized }
  const { bounds } = saved
  let home: Rectangle | undefined
  let best = 0
  for (const area of workAreas) {
    const shared = overlap(bounds, area)
    const visible = shared.width >= Math.min(GRABBABLE.width, bounds.width) && shared.height >= Math.min(GRABBABLE.height, bounds.height)
    if (visible && shared.width * shared.height > best) {
      best = shared.width * shared.height
      home = area
    }
  }
  const target = home ?? primary
  const width = clamp(bounds.width, Math.min(size.minWidth, target.width), target.width)
  const height = clamp(bounds.height, Math.min(size.minHeight, target.height), target.height)
  if (home === undefined) {
    return {
      bounds: { x: target.x + Math.round((target.width - width) / 2), y: target.y + Math.round((target.height - height) / 2), width, height },
      maximized,
    }
  }
  return {
    bounds: { x: clamp(bounds.x, target.x, target.x + target.width - width), y: clamp(bounds.y, target.y, target.y + target.height - height), width, height },
    maximized,
  }
}

/** The screens' work areas, the primary first. */
export function workAreasOf(screen: Pick<Screen, 'getAllDisplays' | 'getPrimaryDisplay'>): Rectangle[] {
  const primary = screen.getPrimaryDisplay()
  return [primary, ...screen.getAllDisplays().filter((display) => display.id !== primary.id)].map((display) => display.workArea)
}

/** window-state.json in the user data folder, kept like every other document (atomic, a corrupt file moved aside). */
export function createWindowStateStore(userDataDir: string, notices: Pick<Notices, 'add'>): DocumentStore<WindowState> {
  return createDocumentStore({
    filePath: path.join(userDataDir, 'window-state.json'),
    schema: windowStateSchema,
    fallback: { version: 1, bounds: null, maximized: false },
    onCorrupt: noticeOnCorrupt(
      notices,
      'info',
      ({ reason }) => `The window's saved size and position could not be read because ${reason}. The window opened at its default size.`,
    ),
  })
}

export type TrackedWindow = Pick<BrowserWindow, 'on' | 'getNormalBounds' | 'isMaximized' | 'isDestroyed'>

export interface Scheduler {
  /** Runs `work` after `ms`; returns the cancel. */
  later(work: () => void, ms: number): () => void
}

const realScheduler: Scheduler = {
  later(work, ms) {
    const timer = setTimeout(work, ms)
    return () => clearTimeout(timer)
  },
}

export interface WindowStateTracker {
  /** Saves now whatever is pending. */
  flush(): Promise<void>
}

/**
 * Saves the window's normal bounds and maximised state as they change: after the user stops
 * moving or resizing for `debounceMs` (a drag fires dozens of events), and at once on close.
 */
export function trackWindowState(
  window: TrackedWindow,
  store: Pick<DocumentStore<WindowState>, 'write'>,
  options: { debounceMs?: number; scheduler?: Scheduler } = {},
): WindowStateTracker {
  const debounceMs = options.debounceMs ?? 500
  const scheduler = options.scheduler ?? realScheduler
  let cancel: (() => void) | null = null
  let latest: WindowState | null = null
  let saving: Promise<void> = Promise.resolve()

  const capture = (): void => {
    if (window.isDestroyed()) return
    const { x, y, width, height } = window.getNormalBounds()
    latest = {
      version: 1,
      bounds: { x: Math.round(x), y: Math.round(y), width: Math.round(width), height: Math.round(height) },
      maximized: window.isMaximized(),
    }
  }
  const save = (): Promise<void> => {
    cancel?.()
    cancel = null
    const state = latest
    if (state === null) return saving
    latest = null
    // A window state that cannot be saved is not worth interrupting anyone for: next start uses the default.
    saving = saving.then(() => store.write(state)).catch(() => undefined)
    return saving
  }
  const changed = (): void => {
    capture()
    cancel?.()
    cancel = scheduler.later(() => void save(), debounceMs)
  }

  for (const event of ['resize', 'move', 'maximize', 'unmaximize'] as const) window.on(event as 'resize', changed)
  window.on('close', () => {
    capture()
    void save()
  })
  return { flush: save }
}
