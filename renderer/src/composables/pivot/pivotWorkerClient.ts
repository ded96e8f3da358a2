import type { SeriesResultLike } from '../../../../common/pivot/series-records'
import type { PivotLayout, PivotWindow, PivotWindowRequest } from '../../../../common/pivot/types'
import { createPivotWorkerState, type PivotAnswer, type PivotQuestion, type ComputedPivotSummary, type WholePivotCells } from './pivotWorkerState'

/** The part of a Worker the client uses (a real one, or the in-page stand-in). */
export interface PivotWorkerPort {
  postMessage(question: PivotQuestion): void
  terminate(): void
  onmessage: ((event: { data: PivotAnswer }) => void) | null
  onerror: ((event: { message?: string }) => void) | null
}

/** A pivot the worker computed: its size and scales here, its cells read from the worker. */
export interface RemotePivot extends ComputedPivotSummary {
  window(request: PivotWindowRequest): Promise<PivotWindow>
  /** Every header and cell (copy as TSV). */
  whole(): Promise<WholePivotCells>
}

/** The browser's module worker; vite bundles the file and gives it a same-origin URL. */
export function spawnPivotWorker(): PivotWorkerPort {
  return new Worker(new URL('./pivot.worker.ts', import.meta.url), { type: 'module' }) as unknown as PivotWorkerPort
}

/** The same answers on the page's own thread, where no Worker exists (unit tests, an old host). */
export function inPagePivotWorker(): PivotWorkerPort {
  const state = createPivotWorkerState()
  let ended = false
  const port: PivotWorkerPort = {
    onmessage: null,
    onerror: null,
    postMessage(question) {
      void Promise.resolve().then(() => {
        const answer = state.handle(question)
        if (!ended) port.onmessage?.({ data: answer })
      })
    },
    terminate: () => (ended = true),
  }
  return port
}

/**
 * The page's side of the report pivot's worker, with the latest-call rule: a newer layout (or
 * result) cancels the computation still running for an older one (the worker is ended and a
 * fresh one started: a pivot cannot be interrupted halfway) and the older call answers null.
 */
export function createPivotWorkerClient(spawn: () => PivotWorkerPort = typeof Worker === 'undefined' ? inPagePivotWorker : spawnPivotWorker) {
  let port: PivotWorkerPort | null = null
  /** Every question's id; `latest`: the newest computation's. */
  let questions = 0
  let latest = 0
  /** The result the current worker holds (a fresh worker holds none). */
  let sentKey: number | null = null
  let computing: number | null = null
  const waiting = new Map<number, { resolve: (answer: PivotAnswer) => void }>()

  function start(): PivotWorkerPort {
    const next = spawn()
    next.onmessage = (event) => {
      const answer = event.data
      waiting.get(answer.id)?.resolve(answer)
      waiting.delete(answer.id)
    }
    next.onerror = (event) => {
      // A worker that fails to load or throws: every question still open gets the sentence.
      for (const [id, open] of waiting) open.resolve({ kind: 'failed', id, message: event.message ?? 'The pivot could not be computed.' })
      waiting.clear()
    }
    sentKey = null
    return next
  }

  function ask(question: PivotQuestion): Promise<PivotAnswer> {
    port ??= start()
    const target = port
    return new Promise((resolve) => {
      waiting.set(question.id, { resolve })
      target.postMessage(question)
    })
  }

  /** Cancels a computation still running: its worker is ended, its caller answered null. */
  function cancelRunning(): void {
    if (computing === null || port === null) return
    port.terminate()
    port = null
    for (const [id, open] of waiting) open.resolve({ kind: 'failed', id, message: 'A newer pivot replaced this one.' })
    waiting.clear()
  }

  function failure(answer: PivotAnswer): Error {
    return new Error(answer.kind === 'failed' ? answer.message : 'The pivot worker answered something else.')
  }

  async function read<Kind extends PivotAnswer['kind']>(question: PivotQuestion, kind: Kind): Promise<Extract<PivotAnswer, { kind: Kind }>> {
    const answer = await ask(question)
    if (answer.kind !== kind) throw failure(answer)
    return answer as Extract<PivotAnswer, { kind: Kind }>
  }

  return {
    /**
     * The pivot of `series` in `layout`; null when a newer call came before it was done (drop it).
     * `resultKey` names the result: the same key is not sent to the worker again.
     */
    async compute(resultKey: number, series: SeriesResultLike, breakdown: string[], layout: PivotLayout): Promise<RemotePivot | null> {
      cancelRunning()
      const id = ++questions
      latest = id
      computing = id
      port ??= start()
      const withResult = sentKey !== resultKey
      sentKey = resultKey
      let answer = await ask({ kind: 'compute', id, resultKey, result: withResult ? { series, breakdown } : null, layout })
      if (answer.kind === 'failed' && answer.needsResult === true && id === latest)
        answer = await ask({ kind: 'compute', id, resultKey, result: { series, breakdown }, layout })
      if (computing === id) computing = null
      if (id !== latest) return null
      if (answer.kind !== 'computed') throw failure(answer)
      return {
        ...answer.summary,
        window: async (request) => (await read({ kind: 'window', id: ++questions, pivot: id, request }, 'window')).window,
        whole: async () => (await read({ kind: 'whole', id: ++questions, pivot: id }, 'whole')).whole,
      }
    },
    /** No pivot is wanted now (no result, a layout that does not fit): any running computation is cancelled and dropped. */
    cancel(): void {
      cancelRunning()
      latest = ++questions
      computing = null
    },
    dispose(): void {
      port?.terminate()
      port = null
      waiting.clear()
    },
  }
}
