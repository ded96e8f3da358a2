/**
 * The main thread's side of the demo backend's worker (worker.ts): starts it, waits for
 * where it listens, and stops it by message. Imports nothing of the sandbox itself, so loading
 * this costs main next to nothing; the sandbox's code and data live in the worker.
 */
import { Worker } from 'node:worker_threads'
import type { SandboxInfo } from './index'

/** What the worker is started with (workerData). */
export interface WorkerStart {
  port: number
  host: string
}
export type ToWorker = { type: 'close' }
export type FromWorker = { type: 'started'; info: SandboxInfo; port: number } | { type: 'failed'; message: string } | { type: 'closed'; error?: string }

export interface WorkerSandbox {
  info: SandboxInfo
  port: number
  /** Closes the server in the worker, then ends the thread. */
  close(): Promise<void>
}

/** The worker's file in the build, beside out/main/index.js (an input of its own in vite.config.ts). */
export const BUILT_WORKER_FILE = 'sandbox-worker.js'

/** The shape runtime.ts loads: a start function that runs the sandbox in a worker on `script`. */
export function sandboxInWorker(script: string | URL): { startSandbox(options: { port?: number; host?: string }): Promise<WorkerSandbox> } {
  return { startSandbox: (options) => startSandboxInWorker(script, options) }
}

/** How long a worker that does not answer "close" (stuck in a computation) is given before it is ended anyway. */
const CLOSE_GRACE_MS = 2_000

/**
 * Starts the embedded sandbox in a worker thread running `script`: the built
 * out/main/sandbox-worker.js in the app, or worker-source.mjs when main runs from source.
 */
export function startSandboxInWorker(script: string | URL, options: { port?: number; host?: string } = {}): Promise<WorkerSandbox> {
  const start: WorkerStart = { port: options.port ?? 0, host: options.host ?? '127.0.0.1' }
  const worker = new Worker(script, { workerData: start })
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()))
  let failure: Error | null = null
  // Always listened to: an 'error' with no listener would take the whole main process down.
  worker.on('error', (error) => {
    failure = error
  })

  return new Promise<WorkerSandbox>((resolve, reject) => {
    const onExit = (code: number): void => reject(failure ?? new Error(`The demo backend stopped before it started (exit code ${code}).`))
    worker.once('exit', onExit)
    worker.once('error', (error) => reject(error))
    worker.once('message', (message: FromWorker) => {
      worker.off('exit', onExit)
      if (message.type !== 'started') {
        void worker.terminate()
        reject(new Error(message.type === 'failed' ? message.message : 'The demo backend did not start.'))
        return
      }
      let closing: Promise<void> | undefined
      resolve({
        info: message.info,
        port: message.port,
        close() {
          closing ??= stop()
          return closing
        },
      })
    })
  })

  async function stop(): Promise<void> {
    const closed = new Promise<void>((resolve) => {
      worker.on('message', (message: FromWorker) => {
        if (message.type === 'closed') resolve()
      })
      void exited.then(resolve)
    })
    const grace = new Promise<void>((resolve) => setTimeout(resolve, CLOSE_GRACE_MS).unref())
    worker.postMessage({ type: 'close' } satisfies ToWorker)
    await Promise.race([closed, grace])
    await worker.terminate()
    await exited
  }
}
