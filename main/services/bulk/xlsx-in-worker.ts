import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { XLSX_LIMITS, type XlsxLimits, type XlsxWorkbook } from './read-xlsx'
import type { XlsxWorkerAnswer, XlsxWorkerStart } from './xlsx-worker'

/**
 * Main's side of the XLSX reader: the bulk import (import-file.ts) and the analysis
 * (analysis/opened-files.ts) read a workbook here, in a worker thread of its own (xlsx-worker.ts)
 * under a wall-clock bound, so a crafted workbook never holds main's event loop: the thread is
 * ended past the bound, or once it answered, and the read answers a sentence. One thread per read:
 * its memory goes with it.
 */

export const XLSX_TIME_LIMIT_MS = 30_000

export interface XlsxReadOptions {
  limits?: XlsxLimits
  /** Past this the thread is ended and the read answers a sentence. */
  timeLimitMs?: number
  /** The thread's script (tests inject one); xlsxWorkerScript() when left out. */
  workerScript?: URL
}

/**
 * The worker's script. Built, xlsx-worker.js sits at the root of each build's folder (out/main,
 * out/cli, out/web: inputs of their own in vite.config.ts), and this module in a chunk there or in
 * its assets/ folder; from source (tsx, vitest) this module is a .ts file and the script is the tsx
 * loader beside it.
 */
export function xlsxWorkerScript(moduleUrl: string = import.meta.url): URL {
  if (moduleUrl.endsWith('.ts')) return new URL('./xlsx-worker-source.mjs', moduleUrl)
  const beside = new URL('./xlsx-worker.js', moduleUrl)
  return existsSync(fileURLToPath(beside)) ? beside : new URL('../xlsx-worker.js', moduleUrl)
}

const duration = (milliseconds: number): string => (milliseconds < 1000 ? `${milliseconds} ms` : `${Math.round(milliseconds / 1000)} seconds`)

const unread = (problem: string): XlsxWorkbook => ({
  table: { separator: ',', header: [], rows: [], problems: [problem], scanned: 0 },
  sheets: [],
  columnTypes: [],
  date1904: false,
})

type Outcome = { kind: 'answer'; answer: XlsxWorkerAnswer } | { kind: 'late' } | { kind: 'failed'; error: Error } | { kind: 'exited'; code: number }

/** The workbook's first sheet and its sheets' names, read off main's thread within `timeLimitMs`. */
export async function readXlsxFile(bytes: Uint8Array, options: XlsxReadOptions = {}): Promise<XlsxWorkbook> {
  const timeLimitMs = options.timeLimitMs ?? XLSX_TIME_LIMIT_MS
  const start: XlsxWorkerStart = { bytes, limits: options.limits ?? XLSX_LIMITS }
  // The bytes are copied to the thread, not transferred: the caller still fingerprints them.
  const worker = new Worker(options.workerScript ?? xlsxWorkerScript(), { workerData: start })
  let timer: NodeJS.Timeout | undefined
  const outcome = await new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'late' }), timeLimitMs)
    worker.once('message', (answer: XlsxWorkerAnswer) => resolve({ kind: 'answer', answer }))
    // Always listened to: an 'error' with no listener would take the whole main process down.
    worker.on('error', (error) => resolve({ kind: 'failed', error }))
    worker.once('exit', (code) => resolve({ kind: 'exited', code }))
  })
  clearTimeout(timer)
  // Resolves once the thread has stopped, whether it answered or ran past its bound.
  await worker.terminate()
  if (outcome.kind === 'late')
    return unread(`Reading the workbook took longer than ${duration(timeLimitMs)}, so it was stopped; save a smaller sheet, or export it as CSV.`)
  if (outcome.kind === 'answer') {
    if (outcome.answer.type === 'read') return outcome.answer.workbook
    throw new Error(outcome.answer.message)
  }
  if (outcome.kind === 'failed') {
    if ((outcome.error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY')
      return unread('Reading the workbook needed more memory than the app has; save a smaller sheet, or export it as CSV.')
    throw outcome.error
  }
  throw new Error(`The XLSX reader stopped before it answered (exit code ${outcome.code}).`)
}
