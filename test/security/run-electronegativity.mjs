// Runs Electronegativity's scanner over one folder and writes its findings as JSON to a file.
//
// Used by test/integration/security/electronegativity.test.ts, in a child process of its own
// because the scanner registers globals (i18n's `__`) and is a CommonJS program.
// Two things of its command line are avoided on purpose: it downloads translations and
// Electron's release list from the network on every run (a test must not depend on the
// network, nor run what it downloads), and it writes its CSV with two unsynchronised writes
// (header and rows) that can overwrite each other, which would let findings go missing.
import fs from 'node:fs'
import Module, { createRequire } from 'node:module'
import path from 'node:path'

const [input, output] = process.argv.slice(2)
if (!input || !output) {
  console.error('usage: node run-electronegativity.mjs <folder> <findings.json>')
  process.exit(2)
}

const load = createRequire(import.meta.url)
const root = path.dirname(load.resolve('@doyensec/electronegativity/package.json', { paths: [process.cwd()] }))

// Every network fetch the scanner makes goes through `got`: answer them all with "offline",
// which it handles (built-in English texts; no release list).
const gotPath = load.resolve('got', { paths: [root] })
const offline = new Module(gotPath)
offline.exports = () => Promise.reject(new Error('offline: the security gate does not use the network'))
offline.loaded = true
load.cache[gotPath] = offline

const run = load(path.join(root, 'dist', 'runner.js'))

run({
  input: path.resolve(input),
  isRelative: true,
  customScan: [],
  // The first needs Electron's release list from GitHub; the second only feeds it (it "finds" the
  // Electron version, always). Electron upgrades are a dependency review, not this gate's.
  excludeFromScan: ['availablesecurityfixesglobalcheck', 'electronversionjsoncheck'],
  parserPlugins: [],
})
  .then((result) => {
    const findings = result.issues.map((issue) => ({
      check: issue.id,
      file: issue.file,
      line: issue.location?.line ?? 0,
      column: issue.location?.column ?? 0,
      severity: issue.severity?.name ?? '',
      confidence: issue.confidence?.name ?? '',
      sample: issue.sample ?? '',
      description: issue.description ?? '',
    }))
    const errors = result.errors.map((error) => ({ file: path.relative(input, error.file), message: error.message, tolerable: error.tolerable }))
    fs.writeFileSync(output, JSON.stringify({ checks: result.atomicChecks + result.globalChecks, findings, errors }, null, 1))
  })
  .catch((error) => {
    console.error(error && error.stack ? error.stack : String(error))
    process.exit(1)
  })
