import { mkdirSync, promises as fs } from 'node:fs'
import path from 'node:path'
import { afterAll, inject } from 'vitest'

/**
 * Each worker's temporary folder is a folder of its own inside the run's (global-setup.ts): Node's
 * os.tmpdir() reads TMPDIR (TEMP and TMP on Windows) at every call, and the processes a test
 * starts inherit them, so every fs.mkdtemp(os.tmpdir()…) lands there. A worker runs one file at a
 * time, so what the folder holds when a file ends is that file's: it is emptied then, after the
 * file's own afterAll hooks (setup files' hooks run last), so a long run never holds more than a
 * file's worth. Run again for every file: the folder is made once per worker.
 */
const worker = path.join(inject('temporaryRoot'), `worker-${process.pid}`)
if (process.env.TMPDIR !== worker) {
  mkdirSync(worker, { recursive: true })
  process.env.TMPDIR = process.env.TEMP = process.env.TMP = worker
}

afterAll(async () => {
  if (process.env.ADOPS_KEEP_TEST_FILES === '1') return
  const entries = await fs.readdir(worker).catch(() => [])
  // A process a test started may still be writing: what cannot go now goes with the run's folder.
  await Promise.all(entries.map((entry) => fs.rm(path.join(worker, entry), { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined)))
})
