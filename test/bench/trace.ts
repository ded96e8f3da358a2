/**
 * What a Chromium trace says about stretches of a page's work marked with user timing marks
 * (`performance.mark(start)` … `performance.mark(end)`): the page's main-thread CPU time in each,
 * split into script, style, layout, paint and garbage collection. Thread time, not wall time:
 * on a machine shared with other work it tells what the page's own code costs.
 */

export interface TraceEvent {
  name: string
  ph: string
  ts: number
  dur?: number
  tdur?: number
  pid: number
  tid: number
  args?: { name?: string }
}

/** BENCH_TRACE_SAMPLES=1 adds V8's CPU samples: the trace then says which functions each task ran (heavier, so off by default). */
export const TRACE_CATEGORIES = [
  'toplevel',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'blink.user_timing',
  'v8',
  ...(process.env.BENCH_TRACE_SAMPLES ? ['disabled-by-default-v8.cpu_profiler'] : []),
]

/**
 * Which part of the work an event is; script contains the garbage collection it caused. Vue
 * updates the page in a microtask after the input event: without the microtask checkpoint, the
 * search and the render were missing from script (they showed only in the CPU total).
 */
const PARTS: Record<string, string> = {
  FunctionCall: 'script',
  EvaluateScript: 'script',
  BlinkScheduler_PerformMicrotaskCheckpoint: 'script',
  RunMicrotasks: 'script',
  UpdateLayoutTree: 'style',
  Layout: 'layout',
  PrePaint: 'paint',
  Paint: 'paint',
  Layerize: 'paint',
  MinorGC: 'gc',
  MajorGC: 'gc',
}

/** Main-thread CPU of a stretch of the page's work (a keystroke, a frame). */
export interface ThreadCost {
  /** Main-thread CPU time of the tasks that ran in the stretch, ms. */
  cpu: number
  /** ms by part: script (with gc inside it), style, layout, paint, gc. */
  parts: Record<string, number>
}

export interface StretchCost extends ThreadCost {
  /**
   * ms by task: the one the start mark is made in (`own`), the frames drawn (`frames`: tasks that
   * style, lay out or paint), and every other task that ran inside the stretch (`other`: work that
   * was not the stretch's own, such as an answer decoded or an idle callback run by its timeout).
   */
  tasks: { own: number; frames: number; other: number }
}

/** Events that make a task one of the page's frames. */
const FRAME_WORK = new Set(['UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'FireAnimationFrame', 'Commit'])

/** The cost of every stretch between a `start` mark and the next `end` mark on the page's main thread, in order. */
export function stretchCosts(traceJson: string, start: string, end: string): StretchCost[] {
  const events = traceEvents(traceJson)
  const starts = eventsNamed(events, start)
  const ends = eventsNamed(events, end)
  const first = starts[0]
  if (!first) return []
  const work = mainThreadWork(events, first)
  const tasks = work.filter((event) => event.name === 'RunTask')
  return starts.map((mark) => {
    const until = ends.find((candidate) => candidate.ts >= mark.ts)?.ts ?? Number.POSITIVE_INFINITY
    const parts: Record<string, number> = { script: 0, style: 0, layout: 0, paint: 0, gc: 0 }
    const byTask = { own: 0, frames: 0, other: 0 }
    let cpu = 0
    // The task the start mark is made in holds the stretch's own first work: the input event and
    // the microtasks it queued (Vue's update of the page: the search, the list, the DOM). V8 runs
    // those microtasks without a trace event of their own, so the task is counted whole and its
    // CPU outside any traced part is script. (Counting only tasks that began after the mark left a
    // keystroke's search and render out of its cost.)
    const current = tasks.find((task) => task.ts < mark.ts && task.ts + (task.dur ?? 0) >= mark.ts)
    if (current) {
      const ms = (current.tdur ?? 0) / 1000
      cpu += ms
      byTask.own = ms
      let traced = 0
      for (const event of work) {
        if (event.ts < mark.ts || event.ts > current.ts + (current.dur ?? 0)) continue
        const part = PARTS[event.name]
        if (part && part !== 'script' && part !== 'gc') traced += (event.tdur ?? 0) / 1000
      }
      parts.script = (parts.script ?? 0) + Math.max(0, ms - traced)
    }
    // Script events nest (a microtask checkpoint inside a function call): only the outermost counts.
    let scriptUntil = current ? current.ts + (current.dur ?? 0) : 0
    work.forEach((event, position) => {
      if (event.ts < mark.ts || event.ts > until) return
      const ms = (event.tdur ?? 0) / 1000
      if (event.name === 'RunTask') {
        cpu += ms
        // The events inside the task follow it (the work is in time order).
        const end = event.ts + (event.dur ?? 0)
        let frame = false
        for (let next = position + 1; next < work.length && (work[next] as TraceEvent).ts <= end && !frame; next++)
          frame = FRAME_WORK.has((work[next] as TraceEvent).name)
        byTask[frame ? 'frames' : 'other'] += ms
      }
      const part = PARTS[event.name]
      if (part === 'script') {
        if (event.ts < scriptUntil) return
        scriptUntil = event.ts + (event.dur ?? 0)
      }
      if (part) parts[part] = (parts[part] ?? 0) + ms
    })
    return { cpu, parts, tasks: byTask }
  })
}

/** A Chromium trace's events, from either of its JSON shapes. */
export function traceEvents(traceJson: string): TraceEvent[] {
  const parsed = JSON.parse(traceJson) as { traceEvents?: TraceEvent[] } | TraceEvent[]
  return Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? [])
}

/** The events named `name` (user timing marks), in time order. */
export function eventsNamed(events: readonly TraceEvent[], name: string): TraceEvent[] {
  return events.filter((event) => event.name === name).sort((a, b) => a.ts - b.ts)
}

/**
 * The complete events (with their thread time) of the thread a mark was made on, in time order:
 * the marks are made on the page's main thread, so that is the one measured.
 */
export function mainThreadWork(events: readonly TraceEvent[], mark: TraceEvent): TraceEvent[] {
  const mainThread = events.find((event) => event.ph === 'M' && event.name === 'thread_name' && event.pid === mark.pid && event.args?.name === 'CrRendererMain')
  const tid = mainThread?.tid ?? mark.tid
  return events.filter((event) => event.pid === mark.pid && event.tid === tid && event.ph === 'X' && typeof event.tdur === 'number').sort((a, b) => a.ts - b.ts)
}
