import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { TestProject } from 'vitest/node'

/**
 * One folder for everything the run's tests write to the temporary folder (test/support/temporary/
 * per-file.ts points each worker's TMPDIR into it), removed when the run ends: the suite makes
 * some 1,700 folders a run, data folders with mirrors, exports and logs among them, which were
 * left behind in the system's temporary folder (9.7 GB after a few weeks of runs here).
 * ADOPS_KEEP_TEST_FILES=1 keeps them, to look at what a test wrote.
 */
export default function setup(project: TestProject): () => void {
  const root = mkdtempSync(path.join(os.tmpdir(), 'adops-vitest-'))
  project.provide('temporaryRoot', root)
  return () => {
    if (process.env.ADOPS_KEEP_TEST_FILES === '1') console.log(`test files kept in ${root}`)
    else rmSync(root, { recursive: true, force: true, maxRetries: 5 })
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's temporary folder (global-setup.ts). */
    temporaryRoot: string
  }
}
