import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { chunkSources } from '../../support/chunk-sources'
import { freshBuild } from '../../support/child-process'

/**
 * What every start of the built command line loads: out/cli/index.js, the chunks it imports
 * statically, and the services chunk runCli imports for every command. A cron export pays for
 * each of them (the exports bench), so what only some commands need (the analysis engine, XLSX
 * unzipping, cron parsing, board drawing) must load when those commands run, and undici must
 * be bundled (its thirty CommonJS files cost about 20 ms to resolve and wrap one by one).
 */
const entry = freshBuild('out/cli/index.js')
const folder = path.dirname(entry)

const staticImports = (code: string): string[] => [...code.matchAll(/^import\s+(?:[^'"]*?\s+from\s+)?"([^"]+)";?$/gm)].map((match) => match[1] ?? '')
const dynamicImports = (code: string): string[] => [...code.matchAll(/\bimport\("([^"]+)"\)/g)].map((match) => match[1] ?? '')

interface StartGraph {
  /** Built chunks, relative to out/cli. */
  chunks: string[]
  /** Source files bundled into those chunks, relative to the repository root. */
  sources: string[]
  /** Packages and Node modules imported as they are. */
  packages: string[]
}

function startGraph(): StartGraph {
  const entryCode = readFileSync(entry, 'utf8')
  const services = dynamicImports(entryCode).find((target) => /\/services-[\w-]+\.js$/.test(target))
  if (services === undefined) throw new Error('out/cli/index.js no longer imports the services chunk: update this test')
  const chunks = new Set<string>()
  const packages = new Set<string>()
  const pending = [path.resolve(folder, 'index.js'), path.resolve(folder, services)]
  while (pending.length > 0) {
    const file = pending.pop() ?? ''
    const name = path.relative(folder, file)
    if (chunks.has(name)) continue
    chunks.add(name)
    for (const target of staticImports(readFileSync(file, 'utf8'))) {
      if (target.startsWith('.')) pending.push(path.resolve(path.dirname(file), target))
      else packages.add(target)
    }
  }
  const root = path.resolve(folder, '../..')
  const sources = [...chunks].flatMap((chunk) => chunkSources(path.join(folder, chunk)).map((source) => path.relative(root, source)))
  return { chunks: [...chunks], sources, packages: [...packages] }
}

describe('what a start of the built command line loads', () => {
  const graph = startGraph()

  it('is found: the entry, the services chunk and the HTTP client are in it', () => {
    expect(graph.chunks).toContain('index.js')
    expect(graph.sources).toContain('main/cli/run.ts')
    expect(graph.sources).toContain('main/cli/services.ts')
    expect(graph.sources).toContain('main/services/http/client.ts')
  })

  it('leaves out what only some commands need', () => {
    const heavy = [
      'node_modules/fflate/',
      'node_modules/croner/',
      'node_modules/@duckdb/',
      'main/services/analysis/',
      'main/services/schedules/',
      'main/services/boards/board-page-layout.ts',
      'main/services/boards/board-file-maker.ts',
      'main/services/bulk/read-xlsx.ts',
      'main/services/bulk/xlsx-',
    ]
    const loaded = graph.sources.filter((source) => heavy.some((prefix) => source.startsWith(prefix)))
    expect(loaded).toEqual([])
    expect(graph.packages.filter((name) => /^(fflate|croner|@duckdb)/.test(name))).toEqual([])
  })

  it('bundles undici instead of loading its files one by one', () => {
    expect(graph.packages.filter((name) => name.startsWith('undici'))).toEqual([])
    expect(graph.sources.some((source) => source.startsWith('node_modules/undici/lib/dispatcher/client-h1.js'))).toBe(true)
  })
})
