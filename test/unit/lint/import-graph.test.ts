import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * The import graph of the app's own code (common, main, preload, renderer) has no circle. Type-only
 * imports count too: a circle of types today is a circle of values after the next refactor.
 */
const root = path.join(import.meta.dirname, '..', '..', '..')
const sourceRoots = ['common', 'main', 'preload', 'renderer/src']
const aliases: Record<string, string> = { '@contract': 'preload/contract/index.ts' }

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const full = path.join(folder, name)
    if (statSync(full).isDirectory()) return sourceFiles(full)
    return /\.(ts|vue)$/.test(name) && !name.endsWith('.d.ts') ? [full] : []
  })
}

function resolveImport(from: string, specifier: string): string | null {
  const aliased = aliases[specifier]
  const base = aliased ? path.join(root, aliased) : specifier.startsWith('.') ? path.resolve(path.dirname(from), specifier) : null
  if (base === null) return null
  for (const candidate of [base, `${base}.ts`, `${base}.vue`, path.join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate
  }
  return null
}

const importPattern = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g

function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const file of sourceRoots.flatMap((folder) => sourceFiles(path.join(root, folder)))) {
    const text = readFileSync(file, 'utf8')
    const targets: string[] = []
    for (const match of text.matchAll(importPattern)) {
      const specifier = match[1] ?? match[2]
      // A lazy import() is a deliberate seam (views, the demo backend): it cannot form a load-time circle.
      if (!specifier || match[2]) continue
      const target = resolveImport(file, specifier)
      if (target) targets.push(target)
    }
    graph.set(file, targets)
  }
  return graph
}

/** Every circle, found by depth-first search with an on-stack set; each reported once by its sorted members. */
function circles(graph: Map<string, string[]>): string[][] {
  const found = new Map<string, string[]>()
  const state = new Map<string, 'open' | 'done'>()
  const stack: string[] = []
  const visit = (node: string): void => {
    state.set(node, 'open')
    stack.push(node)
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') {
        const circle = stack.slice(stack.indexOf(next)).map((file) => path.relative(root, file))
        found.set([...circle].sort().join(' '), circle)
      } else if (!state.has(next)) visit(next)
    }
    stack.pop()
    state.set(node, 'done')
  }
  for (const node of graph.keys()) if (!state.has(node)) visit(node)
  return [...found.values()]
}

describe('import graph', () => {
  it("reads the app's own files and their imports", () => {
    const graph = importGraph()
    expect(graph.size).toBeGreaterThan(100)
    const contractIndex = path.join(root, 'preload/contract/index.ts')
    expect([...graph.values()].some((targets) => targets.includes(contractIndex))).toBe(true)
    // common/ is in the graph, and both sides reach it.
    const limits = path.join(root, 'common/limits.ts')
    expect(graph.has(limits)).toBe(true)
    const importers = [...graph].filter(([, targets]) => targets.includes(limits)).map(([file]) => path.relative(root, file))
    expect(importers.some((file) => file.startsWith('preload/contract/'))).toBe(true)
    expect(importers.some((file) => file.startsWith('renderer/src/'))).toBe(true)
    expect(importers.some((file) => file.startsWith('main/services/'))).toBe(true)
  })

  it('has no circle', () => {
    expect(circles(importGraph())).toEqual([])
  })

  it('finds a circle when there is one (the detector itself works)', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ])
    expect(circles(graph)).toHaveLength(1)
  })
})
