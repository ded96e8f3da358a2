import { promises as fs } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const root = path.join(import.meta.dirname, '..', '..', '..')
const unitFolder = path.join(root, 'test', 'unit')

async function testFiles(folder: string): Promise<string[]> {
  const found: string[] = []
  for (const entry of await fs.readdir(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name)
    if (entry.isDirectory()) found.push(...(await testFiles(full)))
    else if (entry.name.endsWith('.test.ts')) found.push(full)
  }
  return found
}

/**
 * Unit tests share one module graph per worker (test/vitest.config.ts: `isolate: false`), so a
 * module mocked in one file would be the mock in every file after it. Module mocks and mocked
 * globals belong to integration tests, which run isolated.
 */
describe('unit tests leave no module mock behind', () => {
  it('no unit test mocks a module or stubs a global', async () => {
    const offenders: string[] = []
    for (const file of await testFiles(unitFolder)) {
      const source = await fs.readFile(file, 'utf8')
      if (/\bvi\.(mock|doMock|stubGlobal)\(/.test(source.replace(/\/\/.*$/gm, ''))) offenders.push(path.relative(root, file))
    }
    expect(offenders).toEqual([])
  })
})
