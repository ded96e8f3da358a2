#!/usr/bin/env node
/**
 * Writes out/licenses.json: the license of every third-party package the app ships, for the
 * About dialog (`app:about`). `npm run build` runs it after the bundles are built.
 *
 * What ships is two sets:
 * - the production dependencies (package.json `dependencies`) and their dependency tree as
 *   package-lock.json resolves it, which electron-builder copies into the package as they are;
 * - the packages whose code vite copied into the renderer and the preload bundles (vue, pinia,
 *   naive-ui, echarts, vue-echarts, zod…), exactly as the build recorded them in
 *   out/bundled-packages.<bundle>.json (the bundledPackagesReport plugin in vite.config.ts).
 *   They are devDependencies, and their build-time tools (compilers, type packages) ship
 *   nowhere, so only those count.
 *
 * usage: node build/licenses.mjs [--root DIR] [--out FILE]
 */
import { existsSync, promises as fs } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'

const BUNDLES = ['renderer', 'preload']
const LICENSE_FILE = /^(licen[cs]e|copying)([.-].*)?$/i
const MAX_TEXT = 64 * 1024

/** The lockfile keys of the packages inside the built bundles; the build must have run. */
export async function bundledPackageKeys(root) {
  const keys = new Set()
  for (const bundle of BUNDLES) {
    const report = path.join(root, 'out', `bundled-packages.${bundle}.json`)
    if (!existsSync(report)) throw new Error(`${path.relative(root, report)} is missing: build the bundles first ("npm run build" does, then runs this script)`)
    for (const key of JSON.parse(await fs.readFile(report, 'utf8'))) keys.add(key)
  }
  return [...keys].sort()
}

const nameOfKey = (key) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length)

/** Node's lookup over the lockfile: the nearest node_modules/<name> from `fromKey` up to the root. */
function resolveKey(packages, fromKey, name) {
  let base = fromKey
  for (;;) {
    const candidate = base === '' ? `node_modules/${name}` : `${base}/node_modules/${name}`
    if (packages[candidate] !== undefined) return candidate
    if (base === '') return null
    const at = base.lastIndexOf('/node_modules/')
    base = at === -1 ? '' : base.slice(0, at)
  }
}

function declaredLicense(entry, manifest) {
  const value = entry.license ?? manifest?.license ?? manifest?.licenses
  if (typeof value === 'string') return value
  if (Array.isArray(value))
    return (
      value
        .map((item) => (typeof item === 'string' ? item : item?.type))
        .filter(Boolean)
        .join(' OR ') || 'UNKNOWN'
    )
  if (value && typeof value === 'object' && typeof value.type === 'string') return value.type
  return 'UNKNOWN'
}

/**
 * The license a package's own license file names in its title, for a package whose manifest
 * declares none (png-js, under pdfkit, ships "MIT License" and no `license` field).
 */
const TITLED_LICENSES = [
  [/^(the )?mit license/i, 'MIT'],
  [/^isc license/i, 'ISC'],
  [/^apache license,? version 2\.0/i, 'Apache-2.0'],
  [/^bsd 3-clause license/i, 'BSD-3-Clause'],
  [/^bsd 2-clause license/i, 'BSD-2-Clause'],
]

function licenseFromText(text) {
  const title =
    (text ?? '')
      .split(/\r?\n/)
      .find((line) => line.trim() !== '')
      ?.trim() ?? ''
  return TITLED_LICENSES.find(([pattern]) => pattern.test(title))?.[1] ?? 'UNKNOWN'
}

async function licenseText(folder) {
  let names
  try {
    names = await fs.readdir(folder)
  } catch {
    return null
  }
  // LICENSE before LICENSE.md before LICENSE-MIT…: the plainest name first.
  const file = names.filter((name) => LICENSE_FILE.test(name)).sort((a, b) => a.length - b.length || a.localeCompare(b))[0]
  if (file === undefined) return null
  const text = await fs.readFile(path.join(folder, file), 'utf8')
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}\n…` : text
}

export async function collectLicenses(root) {
  const manifest = JSON.parse(await fs.readFile(path.join(root, 'package.json'), 'utf8'))
  const lock = JSON.parse(await fs.readFile(path.join(root, 'package-lock.json'), 'utf8'))
  const packages = lock.packages ?? {}
  const missing = []
  // Production dependencies ship with their whole tree.
  const seen = new Set()
  const queue = []
  for (const name of Object.keys(manifest.dependencies ?? {})) {
    const key = resolveKey(packages, '', name)
    if (key === null) missing.push(name)
    else queue.push(key)
  }
  while (queue.length > 0) {
    const key = queue.shift()
    if (seen.has(key)) continue
    seen.add(key)
    const entry = packages[key]
    const optionalPeers = entry.peerDependenciesMeta ?? {}
    const needs = [
      ...Object.keys({ ...entry.dependencies, ...entry.optionalDependencies }),
      ...Object.keys(entry.peerDependencies ?? {}).filter((name) => optionalPeers[name]?.optional !== true),
    ]
    for (const name of needs) {
      const found = resolveKey(packages, key, name)
      // An optional dependency for another platform: nothing of it ships.
      if (found !== null) queue.push(found)
    }
  }
  // Bundled packages ship as the code the bundler kept, which the build listed.
  for (const key of await bundledPackageKeys(root)) {
    if (packages[key] === undefined) missing.push(nameOfKey(key))
    else seen.add(key)
  }

  const byId = new Map()
  for (const key of seen) {
    const name = nameOfKey(key)
    if (name.startsWith('@types/')) continue
    const entry = packages[key]
    const folder = path.join(root, key)
    const onDisk = await fs.readFile(path.join(folder, 'package.json'), 'utf8').then(JSON.parse, () => null)
    const version = entry.version ?? onDisk?.version ?? 'unknown'
    const id = `${name}@${version}`
    if (byId.has(id)) continue
    const text = await licenseText(folder)
    const declared = declaredLicense(entry, onDisk)
    byId.set(id, { name, version, license: declared === 'UNKNOWN' ? licenseFromText(text) : declared, text })
  }
  const list = [...byId.values()].sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version))
  return { packages: list, missing }
}

async function main() {
  const { values } = parseArgs({ options: { root: { type: 'string' }, out: { type: 'string' } } })
  const root = path.resolve(values.root ?? path.join(import.meta.dirname, '..'))
  const out = path.resolve(values.out ?? path.join(root, 'out', 'licenses.json'))
  const { packages, missing } = await collectLicenses(root)
  // A package the lockfile does not know was installed by hand: say so, but a missing entry in
  // About must not stop a build.
  for (const name of missing) console.warn(`licenses: "${name}" ships but is not in package-lock.json; it is left out`)
  await fs.mkdir(path.dirname(out), { recursive: true })
  const temporary = `${out}.${process.pid}.tmp`
  await fs.writeFile(temporary, `${JSON.stringify({ packages }, null, 1)}\n`)
  await fs.rename(temporary, out)
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    console.error(`licenses: ${error instanceof Error ? error.message : String(error)}`)
    process.exit(1)
  })
}
