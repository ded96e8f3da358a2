import { createPivotWorkerState, type PivotQuestion } from './pivotWorkerState'

/**
 * The report pivot's worker: computes a result's pivot off the page's thread (100,000 records
 * take ~0.4 s, which on the page froze typing and scrolling) and answers windows of it.
 */
const state = createPivotWorkerState()
self.onmessage = (event: MessageEvent<PivotQuestion>) => {
  self.postMessage(state.handle(event.data))
}
