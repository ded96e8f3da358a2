import { existsSync, promises as fs } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ISOLATED_TEST_FILES } from '../../isolated-files.mjs'

const root = path.join(import.meta.dirname, '..', '..', '..')

async function testFiles(folder: string): Promise<string[]> {
  const found: string[] = []
  for (const entry of await fs.readdir(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name)
    if (entry.isDirectory()) found.push(...(await testFiles(full)))
    else if (entry.name.endsWith('.test.ts')) found.push(full)
  }
  return found
}

/** Whether a test's source mocks a module or a global (comments left out). */
export function mocksModulesOrGlobals(source: string): boolean {
  return /\bvi\.(mock|doMock|stubGlobal)\(/.test(source.replace(/\/\/.*$/gm, ''))
}

/**
 * Unit and integration tests share one module graph per worker (test/vitest.config.ts:
 * `isolate: false`), so a module mocked in one file would be the mock in every file after it.
 * The files that mock run isolated, and are listed in test/isolated-files.mjs.
 */
describe('shared module graphs are left as they were found', () => {
  it('only the listed isolated files mock a module or stub a global', async () => {
    const offenders: string[] = []
    for (const folder of ['unit', 'integration']) {
      for (const file of await testFiles(path.join(root, 'test', folder))) {
        const relative = path.relative(root, file).split(path.sep).join('/')
        if (ISOLATED_TEST_FILES.includes(relative)) continue
        if (mocksModulesOrGlobals(await fs.readFile(file, 'utf8'))) offenders.push(relative)
      }
    }
    expect(offenders).toEqual([])
  })

  it('every listed isolated file exists (a renamed one would silently join the shared graph)', () => {
    expect(ISOLATED_TEST_FILES.filter((file) => !existsSync(path.join(root, file)))).toEqual([])
  })

  it('tells mocking sources from the rest', () => {
    // Spelled in two parts, so this file does not match its own rule.
    const vi = 'vi.'
    expect(mocksModulesOrGlobals(`${vi}mock('../x')`)).toBe(true)
    expect(mocksModulesOrGlobals(`${vi}stubGlobal('fetch', f)`)).toBe(true)
    expect(mocksModulesOrGlobals(`// ${vi}mock('../x') is not used here`)).toBe(false)
    expect(mocksModulesOrGlobals(`${vi}fn()`)).toBe(false)
  })
})
