/**
 * The XLSX reader's thread: reads the workbook it is started with (workerData) and posts the
 * answer once. Inflating and scanning then take this thread's time, never main's, and main can
 * end it (xlsx-in-worker.ts) when it runs past its time bound. Built as a file of its own
 * (xlsx-worker.js beside each build's entry, see vite.config.ts); from source it is loaded
 * through tsx by xlsx-worker-source.mjs.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { readXlsxWorkbook, type XlsxLimits, type XlsxWorkbook } from './read-xlsx'

/** What the worker is started with. */
export interface XlsxWorkerStart {
  bytes: Uint8Array
  limits: XlsxLimits
}
export type XlsxWorkerAnswer = { type: 'read'; workbook: XlsxWorkbook } | { type: 'failed'; message: string }

const channel = parentPort
if (!channel) throw new Error('main/services/bulk/xlsx-worker.ts runs in a worker thread (see xlsx-in-worker.ts).')

const { bytes, limits } = workerData as XlsxWorkerStart
let answer: XlsxWorkerAnswer
try {
  answer = { type: 'read', workbook: readXlsxWorkbook(bytes, limits) }
} catch (error) {
  answer = { type: 'failed', message: error instanceof Error ? error.message : String(error) }
}
channel.postMessage(answer)
