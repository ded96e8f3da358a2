import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * Rooms that do one job (issue 21): no source file over 300 lines, no component over 220 (the
 * house aims at ~200; the margin takes a comment or a prop, not a second job). A file that grows
 * past its limit is split by job, each piece named for what it does (docs/architecture.md).
 */
const root = path.join(import.meta.dirname, '..', '..', '..')
const sourceRoots = ['main', 'preload', 'common', 'renderer/src', 'build']
const SOURCE_LIMIT = 300
const COMPONENT_LIMIT = 220

/**
 * Files allowed past the limit, each with its reason. Only data tables belong here: a list of
 * values is not made clearer by cutting it in two. A file that fits again must leave this list.
 */
const EXEMPT: Record<string, string> = {}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const full = path.join(folder, name)
    if (statSync(full).isDirectory()) return sourceFiles(full)
    return /\.(ts|mts|cts|js|mjs|cjs|vue)$/.test(name) ? [full] : []
  })
}

/** Lines as `wc -l` counts them. */
function lineCount(file: string): number {
  const text = readFileSync(file, 'utf8')
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
}

const files = sourceRoots.flatMap((folder) => sourceFiles(path.join(root, folder))).map((file) => path.relative(root, file).split(path.sep).join('/'))
const limitOf = (file: string): number => (file.endsWith('.vue') ? COMPONENT_LIMIT : SOURCE_LIMIT)

describe('file sizes', () => {
  it('finds the sources it measures', () => {
    expect(files.length).toBeGreaterThan(300)
    expect(files).toContain('main/runtime.ts')
    expect(files.some((file) => file.endsWith('.vue'))).toBe(true)
  })

  it(`keeps every source file to ${SOURCE_LIMIT} lines and every component to ${COMPONENT_LIMIT}`, () => {
    const over = files
      .filter((file) => !(file in EXEMPT))
      .map((file) => ({ file, lines: lineCount(path.join(root, file)), limit: limitOf(file) }))
      .filter(({ lines, limit }) => lines > limit)
      .map(({ file, lines, limit }) => `${file}: ${lines} lines (limit ${limit}): split it by job`)
    expect(over).toEqual([])
  })

  it('exempts only files that exist and still need it, each with a reason', () => {
    for (const [file, reason] of Object.entries(EXEMPT)) {
      expect(files, `${file} is exempt but not there: remove it from EXEMPT`).toContain(file)
      expect(lineCount(path.join(root, file)), `${file} fits again: remove it from EXEMPT`).toBeGreaterThan(limitOf(file))
      expect(reason.length).toBeGreaterThan(20)
    }
  })
})
