/**
 * Main-thread CPU per frame from a Chromium trace: the page marks `performance.mark(name)` once
 * per animation frame; the CPU (thread time, not wall time) of the tasks that began between two
 * consecutive marks is that frame's cost, split like trace.ts splits a stretch. Thread time does
 * not grow when other work on a shared machine takes the cores, so before/after figures taken on
 * a loaded machine compare.
 */

import { eventsNamed, mainThreadWork, traceEvents, type ThreadCost } from './trace'

/** A task's event: its name depends on the categories traced. */
const TASKS = new Set(['RunTask', 'ThreadControllerImpl::RunTask'])

const PARTS: Record<string, string> = {
  UpdateLayoutTree: 'style',
  Layout: 'layout',
  PrePaint: 'paint',
  Paint: 'paint',
  Layerize: 'paint',
  MinorGC: 'gc',
  MajorGC: 'gc',
}

/** The cost of every frame between two consecutive `mark`s on the page's main thread, in order. */
export function frameCosts(traceJson: string, mark: string): ThreadCost[] {
  const events = traceEvents(traceJson)
  const marks = eventsNamed(events, mark)
  const first = marks[0]
  if (!first) return []
  const work = mainThreadWork(events, first)
  const costs: ThreadCost[] = []
  let cursor = 0
  for (let index = 0; index + 1 < marks.length; index++) {
    const from = marks[index]!.ts
    const until = marks[index + 1]!.ts
    const parts: Record<string, number> = { script: 0, style: 0, layout: 0, paint: 0, gc: 0 }
    let cpu = 0
    while (cursor < work.length && work[cursor]!.ts < from) cursor++
    for (let at = cursor; at < work.length && work[at]!.ts < until; at++) {
      const event = work[at]!
      const ms = (event.tdur ?? 0) / 1000
      if (TASKS.has(event.name)) cpu += ms
      const part = PARTS[event.name]
      if (part) parts[part] = (parts[part] ?? 0) + ms
    }
    // What is not style, layout, paint or collection is script (Vue's render runs in microtasks without events of their own).
    parts.script = Math.max(0, cpu - (parts.style ?? 0) - (parts.layout ?? 0) - (parts.paint ?? 0) - (parts.gc ?? 0))
    costs.push({ cpu, parts })
  }
  return costs
}
