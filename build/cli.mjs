/**
 * `npm run --silent cli -- …`: the command line from built JavaScript (out/cli/index.js, the
 * `cli` build of vite.config.ts), so a start costs Node's start and not a TypeScript compile.
 * It builds first only when the build is missing or older than a source it is made from; the
 * check is a walk of mtimes (a few milliseconds). The build's own output goes to standard
 * error, so standard output stays the command's.
 */
import { spawnSync } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = dirname(dirname(fileURLToPath(import.meta.url)))
const built = join(root, 'out', 'cli', 'index.js')
// Every folder the cli build imports from: main, the runtime-neutral rules in common, the contract.
const sources = [join(root, 'main'), join(root, 'common'), join(root, 'preload', 'contract'), join(root, 'vite.config.ts'), join(root, 'package.json')]

function mtimeOf(path) {
  try {
    return statSync(path).mtimeMs
  } catch {
    return -1
  }
}

function newestUnder(path) {
  let newest = mtimeOf(path)
  let entries
  try {
    entries = readdirSync(path, { withFileTypes: true })
  } catch {
    return newest
  }
  for (const entry of entries) {
    const inner = join(path, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestUnder(inner) : mtimeOf(inner))
  }
  return newest
}

const builtAt = mtimeOf(built)
if (builtAt < 0 || sources.some((source) => newestUnder(source) > builtAt)) {
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js')
  const build = spawnSync(process.execPath, [vite, 'build', '--mode', 'cli', '--logLevel', 'warn'], { cwd: root, stdio: ['ignore', 2, 2] })
  if (build.status !== 0) {
    process.stderr.write('adops-desk: the command line could not be built (see above).\n')
    process.exit(1)
  }
}

await import(pathToFileURL(built).href)
