import { computePivot, type ComputedPivot } from '../../../../common/pivot/model'
import { seriesRecords, type SeriesResultLike } from '../../../../common/pivot/series-records'
import type { PivotColumn, PivotHeader, PivotLayout, PivotWindow, PivotWindowRequest } from '../../../../common/pivot/types'

/**
 * What the report pivot's worker does, as plain functions (no DOM, no Worker): the worker
 * (pivot.worker.ts) answers each message with `handle`, and so does the in-page stand-in where
 * no Worker exists (unit tests). It keeps the last result it was sent (a re-layout does not send
 * the result again) and the last pivot it computed; the page reads that pivot a window at a time.
 */

export type PivotQuestion =
  /** `result` is sent with the first layout of a result (`resultKey` names it) and left out after. */
  | { kind: 'compute'; id: number; resultKey: number; result: { series: SeriesResultLike; breakdown: string[] } | null; layout: PivotLayout }
  | { kind: 'window'; id: number; pivot: number; request: PivotWindowRequest }
  | { kind: 'whole'; id: number; pivot: number }

export interface ComputedPivotSummary {
  rowCount: number
  columnCount: number
  /** Per value of the layout: its item cells' range, for the colour scale. */
  ranges: ({ min: number; max: number } | null)[]
}

export interface WholePivotCells {
  rows: PivotHeader[]
  columns: PivotColumn[]
  cells: (number | null)[][]
}

export type PivotAnswer =
  | { kind: 'computed'; id: number; summary: ComputedPivotSummary }
  | { kind: 'window'; id: number; window: PivotWindow }
  | { kind: 'whole'; id: number; whole: WholePivotCells }
  /** `needsResult`: the worker does not hold that result (a fresh worker): send the question again with it. */
  | { kind: 'failed'; id: number; message: string; needsResult?: boolean }

export function createPivotWorkerState() {
  let held: { key: number; series: SeriesResultLike; breakdown: string[] } | null = null
  let computed: { id: number; pivot: ComputedPivot } | null = null

  function compute(question: Extract<PivotQuestion, { kind: 'compute' }>): PivotAnswer {
    if (question.result !== null) held = { key: question.resultKey, ...question.result }
    if (held === null || held.key !== question.resultKey) return { kind: 'failed', id: question.id, message: 'The result is not here yet.', needsResult: true }
    const pivot = computePivot(seriesRecords(held.series, held.breakdown), question.layout)
    computed = { id: question.id, pivot }
    const ranges = question.layout.values.map((_value, index) => pivot.range(index))
    return { kind: 'computed', id: question.id, summary: { rowCount: pivot.rowCount, columnCount: pivot.columnCount, ranges } }
  }

  function current(id: number, pivot: number): ComputedPivot | PivotAnswer {
    if (computed === null || computed.id !== pivot) return { kind: 'failed', id, message: 'That pivot was replaced by a newer one.' }
    return computed.pivot
  }

  return {
    handle(question: PivotQuestion): PivotAnswer {
      try {
        if (question.kind === 'compute') return compute(question)
        const pivot = current(question.id, question.pivot)
        if ('kind' in pivot) return pivot
        if (question.kind === 'window') return { kind: 'window', id: question.id, window: pivot.window(question.request) }
        const whole = {
          rows: [...pivot.rows],
          columns: [...pivot.columns],
          cells: pivot.rows.map((_row, row) => pivot.columns.map((_column, column) => pivot.cell(row, column))),
        }
        return { kind: 'whole', id: question.id, whole }
      } catch (error) {
        return { kind: 'failed', id: question.id, message: error instanceof Error ? error.message : String(error) }
      }
    },
  }
}
