import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

/**
 * `npm run bench [-- name-filter]`: runs every test/bench/*.bench.ts in turn (their default
 * export), each under a header. A filter keeps only benches whose file name contains it.
 * A bench fails by throwing (a missed target, an invalid measurement: see targets.ts); the
 * others still run, and the process exits 1 if any failed.
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

const failed: string[] = []
for (const file of files) {
  const name = file.replace(/\.bench\.ts$/, '')
  process.stdout.write(`\n=== ${name} ===\n`)
  try {
    const module: { default?: unknown } = await import(pathToFileURL(join(directory, file)).href)
    if (typeof module.default !== 'function') throw new Error('the default export is not a function')
    await (module.default as () => Promise<void>)()
  } catch (error) {
    failed.push(name)
    const missedOnly = error instanceof Error && error.name === 'TargetsMissed'
    process.stdout.write(`FAILED: ${error instanceof Error ? (missedOnly ? error.message : (error.stack ?? error.message)) : String(error)}\n`)
  }
}
process.stdout.write(
  failed.length === 0 ? `\nall ${files.length} benches met their targets\n` : `\n${failed.length} of ${files.length} benches failed: ${failed.join(', ')}\n`,
)
process.exit(failed.length > 0 ? 1 : 0)
