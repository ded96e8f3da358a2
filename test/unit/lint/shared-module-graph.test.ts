import { existsSync, promises as fs, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { DOM_TEST_FILES, declaredEnvironment, testFiles as declaredTestFiles } from '../../dom-files.mjs'
import { ISOLATED_TEST_FILES } from '../../isolated-files.mjs'
import config from '../../vitest.config'

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

interface ProjectShape {
  test: { name: string; include: string[]; exclude?: string[]; environment?: string; isolate?: boolean }
}

/**
 * vitest keeps a worker (and its module graph) only between consecutive files of one project and
 * one environment. With the happy-dom files inside `unit`, ordered among the Node files by
 * duration, the worker was restarted at each switch: 45 fresh workers for 97 files, 133 CPU s
 * against 35 s with the happy-dom files in a project of their own.
 */
describe('each shared module graph holds files of one environment', () => {
  const projects = (config.test?.projects ?? []) as ProjectShape[]
  const project = (name: string): ProjectShape['test'] | undefined => projects.find((candidate) => candidate.test.name === name)?.test

  it('runs the happy-dom files as a project of their own, and no other project runs them', () => {
    expect(project('dom')).toMatchObject({ include: DOM_TEST_FILES, environment: 'happy-dom', isolate: false })
    const unit = project('unit')
    const integration = project('integration')
    for (const file of DOM_TEST_FILES) {
      const owner = file.startsWith('test/unit/') ? unit : integration
      expect(owner?.exclude ?? [], file).toContain(file)
    }
  })

  it('finds the happy-dom files by their declaration, and no test asks for another environment', () => {
    expect(DOM_TEST_FILES).toContain('test/unit/renderer/views/ReportsView.test.ts')
    expect(DOM_TEST_FILES).not.toContain('test/unit/renderer/lib/format.test.ts')
    // Spelled in two parts, so this file does not declare an environment itself.
    const declaration = '@vitest-' + 'environment'
    expect(declaredEnvironment(`// ${declaration} happy-dom\nimport x from 'y'`)).toBe('happy-dom')
    expect(declaredEnvironment(`import x from 'y'`)).toBeNull()
    const others = ['test/unit', 'test/integration']
      .flatMap(declaredTestFiles)
      .filter((file) => ![null, 'happy-dom'].includes(declaredEnvironment(readFileSync(path.join(root, file), 'utf8'))))
    // Another environment needs a project of its own in test/vitest.config.ts (and here).
    expect(others).toEqual([])
  })
})
