/**
 * The embedded demo backend's thread: starts the sandbox (embedded: per-run credentials, no
 * controls, JSON bodies only, a Host check) inside a worker_threads Worker and tells the main
 * thread where it listens. A slow or huge request then computes here, on this thread's event
 * loop, and never freezes the app's main process. Started by in-worker.ts; built as a file of
 * its own (out/main/sandbox-worker.js, see vite.config.ts).
 */
import { parentPort, workerData } from 'node:worker_threads'
import { startSandbox } from './index'
import type { FromWorker, ToWorker, WorkerStart } from './in-worker'

const channel = parentPort
if (!channel) throw new Error('main/sandbox/worker.ts runs in a worker thread (see in-worker.ts).')

const post = (message: FromWorker): void => channel.postMessage(message)
const { port, host } = workerData as WorkerStart

try {
  const sandbox = await startSandbox({ port, host, embedded: true })
  channel.on('message', (message: ToWorker) => {
    if (message.type !== 'close') return
    sandbox.close().then(
      () => post({ type: 'closed' }),
      (error: unknown) => post({ type: 'closed', error: String(error) }),
    )
  })
  post({ type: 'started', info: sandbox.info, port: sandbox.port })
} catch (error) {
  post({ type: 'failed', message: error instanceof Error ? error.message : String(error) })
}
