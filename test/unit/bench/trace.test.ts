import { describe, expect, it } from 'vitest'
import { stretchCosts } from '../../bench/trace'

/** A trace of the page's main thread (pid 1, tid 7), times in microseconds. */
function trace(events: Array<Record<string, unknown>>): string {
  const thread = { name: 'thread_name', ph: 'M', ts: 0, pid: 1, tid: 7, args: { name: 'CrRendererMain' } }
  return JSON.stringify({ traceEvents: [thread, ...events.map((event) => ({ pid: 1, tid: 7, ...event }))] })
}
const mark = (name: string, ts: number) => ({ name, ph: 'I', ts })
const task = (name: string, ts: number, ms: number) => ({ name, ph: 'X', ts, dur: ms * 1000, tdur: ms * 1000 })

describe('stretchCosts', () => {
  it('counts the task the start mark is made in: a keystroke’s own search and render run in its microtasks', () => {
    // The bench's evaluate task sets the mark, dispatches the input event, then V8 runs Vue's
    // update in microtasks that have no trace event: 30 ms of script with nothing nested.
    const costs = stretchCosts(
      trace([
        task('RunTask', 1_000, 31),
        mark('start', 1_500),
        task('RunTask', 40_000, 10),
        task('UpdateLayoutTree', 40_100, 2),
        task('Layout', 42_200, 3),
        task('Paint', 45_300, 4),
        mark('end', 60_000),
      ]),
      'start',
      'end',
    )
    expect(costs).toHaveLength(1)
    expect(costs[0]?.cpu).toBe(41)
    expect(costs[0]?.parts).toMatchObject({ script: 31, style: 2, layout: 3, paint: 4 })
    expect(costs[0]?.tasks).toEqual({ own: 31, frames: 10, other: 0 })
  })

  it('tells apart the frames from other tasks that ran inside the stretch (an answer decoded, an idle callback)', () => {
    const costs = stretchCosts(
      trace([
        task('RunTask', 1_000, 12),
        mark('start', 1_500),
        task('RunTask', 20_000, 6),
        task('FireIdleCallback', 20_100, 5),
        task('RunTask', 30_000, 9),
        task('Layout', 30_100, 4),
        mark('end', 50_000),
      ]),
      'start',
      'end',
    )
    expect(costs[0]?.tasks).toEqual({ own: 12, frames: 9, other: 6 })
  })

  it('leaves out tasks that ended before the start mark', () => {
    const costs = stretchCosts(trace([task('RunTask', 0, 5), mark('start', 6_000), task('RunTask', 7_000, 2), mark('end', 10_000)]), 'start', 'end')
    expect(costs[0]?.cpu).toBe(2)
  })
})
