import { execFileSync } from 'node:child_process'
import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, inject, it } from 'vitest'
import { temporaryFolder } from '../../support/services'

// test/support/temporary/: what tests write to the temporary folder stays inside the run's folder.
describe("the tests' temporary folder", () => {
  const root = inject('temporaryRoot')

  it("is this worker's folder inside the run's, for the test and for the processes it starts", async () => {
    expect(path.dirname(os.tmpdir())).toBe(root)
    expect(path.basename(os.tmpdir())).toBe(`worker-${process.pid}`)
    const folder = await temporaryFolder('adops-where-')
    expect(path.dirname(folder)).toBe(os.tmpdir())
    await fs.writeFile(path.join(folder, 'kept.txt'), 'x')
    const childTemporary = execFileSync(process.execPath, ['-e', 'process.stdout.write(require("node:os").tmpdir())'], { encoding: 'utf8' })
    expect(childTemporary).toBe(os.tmpdir())
  })
})
