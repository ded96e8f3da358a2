import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

/**
 * The test files that run in happy-dom (their first lines say `// @vitest-environment happy-dom`),
 * found by reading them, so a new component test joins them by its own declaration.
 * test/vitest.config.ts runs them as a project of their own: vitest shares a worker (and so its
 * module graph) only between consecutive files of one project and one environment, and with the
 * happy-dom files scattered among the Node ones (vitest orders a project's files by their last
 * duration) the unit worker was restarted, importing zod, Vue and the contract again, at every
 * switch: 56 restarts in one run. (A .mjs file: vitest's config loader imports it as it is.)
 */
const root = path.join(import.meta.dirname, '..')

/** The environment a test's source asks for, read as vitest reads it (its first such comment, anywhere), or null. */
export function declaredEnvironment(source) {
  return /@(?:vitest|jest)-environment\s+([\w-]+)\b/.exec(source)?.[1] ?? null
}

/** Every test file under `folder` (relative to the repository root, with forward slashes). */
export function testFiles(folder) {
  return readdirSync(path.join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${folder}/${entry.name}`
    if (entry.isDirectory()) return testFiles(relative)
    return entry.name.endsWith('.test.ts') ? [relative] : []
  })
}

export const DOM_TEST_FILES = ['test/unit', 'test/integration']
  .flatMap(testFiles)
  .filter((file) => declaredEnvironment(readFileSync(path.join(root, file), 'utf8')) === 'happy-dom')
  .sort()
