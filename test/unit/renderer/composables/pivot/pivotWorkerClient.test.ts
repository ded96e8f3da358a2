import { describe, expect, it } from 'vitest'
import { computePivot } from '../../../../../common/pivot/model'
import { seriesRecords, type SeriesResultLike } from '../../../../../common/pivot/series-records'
import type { PivotLayout } from '../../../../../common/pivot/types'
import { createPivotWorkerClient, inPagePivotWorker, type PivotWorkerPort } from '../../../../../renderer/src/composables/pivot/pivotWorkerClient'
import type { PivotAnswer, PivotQuestion } from '../../../../../renderer/src/composables/pivot/pivotWorkerState'
import { createPivotWorkerState } from '../../../../../renderer/src/composables/pivot/pivotWorkerState'

/** 40 lines of two keys × 30 days, two metrics, with a comparison period and a few empty points. */
function result(): SeriesResultLike {
  const categories = Array.from({ length: 30 }, (_unused, day) => `2026-11-${String(day + 1).padStart(2, '0')} 00:00:00`)
  const series = Array.from({ length: 40 }, (_unused, line) =>
    ['imps', 'clicks'].flatMap((metric, at) => {
      const values = categories.map((_day, day) => ((line * 31 + day * 7 + at) % 13 === 0 ? null : (line + 1) * (day + 3) * (at + 1)))
      const base = { metric, line: `p${line % 8}\u0002c${line}`, label: `P${line % 8} / C${line}`, values }
      return [
        { ...base, key: `${metric}|${line}`, role: 'line' as const },
        { ...base, key: `${metric}|${line}|compare`, role: 'comparison' as const, values: values.map((value) => (value === null ? null : value - 5)) },
      ]
    }),
  ).flat()
  return { granularity: 'granularity_day', categories, comparisonRange: { start: 'x' }, series }
}

const layout = (columns: string[]): PivotLayout => ({
  rows: ['publisher', 'country'],
  columns,
  values: [
    { field: 'imps', aggregate: 'sum' },
    { field: 'clicks', aggregate: 'avg' },
  ],
  sort: { by: 'change', value: 0, column: null, measure: 'percent', direction: 'desc' },
  top: 5,
  subtotals: true,
  showChange: true,
})
const breakdown = ['publisher', 'country']

/** A worker whose answers wait until the test lets them go, in any order; it keeps answering after terminate (a late message). */
function heldPort(sent: PivotQuestion[]) {
  const state = createPivotWorkerState()
  const held: PivotAnswer[] = []
  const port: PivotWorkerPort & { release(index: number): void; terminated: boolean } = {
    onmessage: null,
    onerror: null,
    terminated: false,
    postMessage(question) {
      sent.push(question)
      held.push(state.handle(structuredClone(question)))
    },
    terminate: () => (port.terminated = true),
    release(index) {
      const answer = held[index]
      if (answer !== undefined) port.onmessage?.({ data: structuredClone(answer) })
    },
  }
  return port
}

describe("the report pivot's worker client", () => {
  it('answers the same pivot as the direct computation: size, every cell and header, the colour scales', async () => {
    const client = createPivotWorkerClient(inPagePivotWorker)
    for (const columns of [['@time'], []]) {
      const direct = computePivot(seriesRecords(result(), breakdown), layout(columns))
      const remote = await client.compute(1, result(), breakdown, layout(columns))
      expect(remote).not.toBeNull()
      expect([remote?.rowCount, remote?.columnCount]).toEqual([direct.rowCount, direct.columnCount])
      expect(remote?.ranges).toEqual([direct.range(0), direct.range(1)])
      const everything = { rowStart: 0, rowCount: 500, columnStart: 0, columnCount: 200 }
      expect(await remote?.window(everything)).toEqual(direct.window(everything))
      const part = { rowStart: 3, rowCount: 4, columnStart: 7, columnCount: 9 }
      expect(await remote?.window(part)).toEqual(direct.window(part))
      const whole = await remote?.whole()
      expect(whole?.rows).toEqual(direct.rows)
      expect(whole?.cells[2]?.[5]).toBe(direct.cell(2, 5))
    }
    client.dispose()
  })

  it('sends a result once: a new layout of the same result sends only the layout', async () => {
    const sent: PivotQuestion[] = []
    const port = heldPort(sent)
    const client = createPivotWorkerClient(() => port)
    const first = client.compute(7, result(), breakdown, layout([]))
    port.release(0)
    await first
    const second = client.compute(7, result(), breakdown, layout(['@time']))
    port.release(1)
    expect((await second)?.columnCount).toBeGreaterThan(30)
    expect(sent.map((question) => question.kind === 'compute' && question.result !== null)).toEqual([true, false])
  })

  it('drops an older answer: a newer layout cancels the running computation, and the older call answers null even when its answer comes late', async () => {
    const sent: PivotQuestion[] = []
    const ports = [heldPort(sent), heldPort(sent)]
    let spawned = 0
    const client = createPivotWorkerClient(() => ports[spawned++] as PivotWorkerPort)
    const older = client.compute(1, result(), breakdown, layout(['@time']))
    const newer = client.compute(1, result(), breakdown, layout([]))
    // The older computation's worker was ended, and the newer one went to a fresh worker with the result.
    expect(ports[0]?.terminated).toBe(true)
    expect(sent[1]).toMatchObject({ kind: 'compute', result: { breakdown } })
    ports[1]?.release(0)
    ports[0]?.release(0)
    expect(await older).toBeNull()
    const answer = await newer
    expect(answer?.columnCount).toBe(computePivot(seriesRecords(result(), breakdown), layout([])).columnCount)
  })

  it('a pivot no longer wanted (cancel) answers null; a layout that cannot be computed is an error with its sentence', async () => {
    const sent: PivotQuestion[] = []
    const port = heldPort(sent)
    const client = createPivotWorkerClient(() => port)
    const running = client.compute(1, result(), breakdown, layout([]))
    client.cancel()
    expect(await running).toBeNull()
    const direct = createPivotWorkerClient(inPagePivotWorker)
    await expect(direct.compute(1, result(), breakdown, { ...layout([]), rows: ['nope'] })).rejects.toThrow(/"nope", which this result does not have/)
  })
})
