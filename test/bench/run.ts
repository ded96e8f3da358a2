import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

/**
 * `npm run bench [-- name-filter]`: runs every test/bench/*.bench.ts in turn (their default
 * export), each under a header. A filter keeps only benches whose file name contains it.
 */

const directory = dirname(fileURLToPath(import.meta.url))
const filter = process.argv[2] ?? ''
const files = readdirSync(directory)
  .filter((name) => name.endsWith('.bench.ts') && name.includes(filter))
  .sort()

if (files.length === 0) {
  process.stderr.write(`no bench matches '${filter}'\n`)
  process.exit(1)
}

let failed = 0
for (const file of files) {
  process.stdout.write(`\n=== ${file.replace(/\.bench\.ts$/, '')} ===\n`)
  try {
    const module: { default?: unknown } = await import(pathToFileURL(join(directory, file)).href)
    if (typeof module.default !== 'function') throw new Error('the default export is not a function')
    await (module.default as () => Promise<void>)()
  } catch (error) {
    failed++
    process.stdout.write(`FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  }
}
process.exit(failed > 0 ? 1 : 0)
