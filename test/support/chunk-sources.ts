import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'

/**
 * The source files a built chunk was made from, as absolute paths, read from its source map. A
 * chunk without a map holds no source of its own: the bundler's runtime helpers, and the facade
 * it writes for a module imported both statically and lazily (a line of re-exports).
 */
export function chunkSources(chunk: string): string[] {
  const mapFile = `${chunk}.map`
  if (!existsSync(mapFile)) return []
  const map = JSON.parse(readFileSync(mapFile, 'utf8')) as { sources: string[] }
  return map.sources.map((source) => path.resolve(path.dirname(chunk), source))
}
