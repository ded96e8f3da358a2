import { execFile } from 'node:child_process'
import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'

/**
 * The security linter gate: Electronegativity over main, preload and the renderer. Any finding
 * not in the reviewed allow-list (test/security/electronegativity-allow.json, each entry with
 * its reason) fails the suite, and so does an entry that no longer matches a finding, so the
 * list stays what was reviewed. The scanner runs in a child process without network access
 * (see test/security/run-electronegativity.mjs for why not through its command line).
 */
const root = path.join(import.meta.dirname, '..', '..', '..')
const runner = path.join(root, 'test', 'security', 'run-electronegativity.mjs')
const allowListFile = path.join(root, 'test', 'security', 'electronegativity-allow.json')

/** A window with the protections off: proof, in every run, that the scanner runs and reports. */
const CANARY_FILE = '__canary__/window.js'
const CANARY = `const { BrowserWindow } = require('electron')\nnew BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false, sandbox: false } })\n`

const allowListSchema = z.array(
  z.object({ check: z.string().min(1), file: z.string().min(1), reason: z.string().min(40, 'Say why the finding is acceptable, concretely') }).strict(),
)
const reportSchema = z.object({
  checks: z.number(),
  findings: z.array(
    z
      .object({
        check: z.string(),
        file: z.string(),
        line: z.number(),
        severity: z.string(),
        confidence: z.string(),
        sample: z.string(),
        description: z.string(),
      })
      .loose(),
  ),
  errors: z.array(z.object({ file: z.string(), message: z.string(), tolerable: z.boolean() })),
})
type Report = z.infer<typeof reportSchema>

/**
 * The scanner reads .js/.ts/.html files only, so each Vue single-file component is given to it
 * as its script (`X.vue.ts`) and its template (`X.vue.html`); findings are named after the .vue.
 */
async function prepareScanFolder(target: string): Promise<void> {
  for (const folder of ['main', 'preload', 'renderer/src']) {
    await fs.cp(path.join(root, folder), path.join(target, folder), { recursive: true, filter: (source) => !source.includes('node_modules') })
  }
  await fs.copyFile(path.join(root, 'renderer', 'index.html'), path.join(target, 'renderer', 'index.html'))
  // The Electron version the checks judge by comes from here.
  await fs.copyFile(path.join(root, 'package.json'), path.join(target, 'package.json'))
  for (const entry of await fs.readdir(path.join(target, 'renderer', 'src'), { recursive: true })) {
    if (!entry.endsWith('.vue')) continue
    const file = path.join(target, 'renderer', 'src', entry)
    const source = await fs.readFile(file, 'utf8')
    const scripts = [...source.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1])
    const template = /<template\b[^>]*>([\s\S]*)<\/template>/.exec(source)?.[1] ?? ''
    await fs.writeFile(`${file}.ts`, scripts.join('\n'))
    await fs.writeFile(`${file}.html`, `<!doctype html><html><body>${template}</body></html>`)
    await fs.rm(file)
  }
  await fs.mkdir(path.join(target, path.dirname(CANARY_FILE)), { recursive: true })
  await fs.writeFile(path.join(target, CANARY_FILE), CANARY)
}

const sourceName = (file: string): string =>
  file
    .split(path.sep)
    .join('/')
    .replace(/\.vue\.(ts|html)$/, '.vue')

let folder: string
let report: Report

beforeAll(async () => {
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'adops-electronegativity-'))
  const scan = path.join(folder, 'scan')
  await prepareScanFolder(scan)
  const output = path.join(folder, 'findings.json')
  await promisify(execFile)(process.execPath, [runner, scan, output], { cwd: root, timeout: 120_000 })
  report = reportSchema.parse(JSON.parse(await fs.readFile(output, 'utf8')))
}, 150_000)
afterAll(async () => {
  await fs.rm(folder, { recursive: true, force: true })
})

describe('Electronegativity over main, preload and the renderer', () => {
  it('ran its checks over every file: none failed to parse, and the canary window was caught', () => {
    expect(report.checks).toBeGreaterThan(30)
    expect(report.errors.filter((error) => !error.tolerable)).toEqual([])
    const canary = report.findings.filter((finding) => finding.file === CANARY_FILE).map((finding) => finding.check)
    expect(canary).toEqual(expect.arrayContaining(['CONTEXT_ISOLATION_JS_CHECK', 'SANDBOX_JS_CHECK']))
  })

  it('reports nothing that is not in the reviewed allow-list, and the list holds nothing it no longer reports', async () => {
    const allowed = allowListSchema.parse(JSON.parse(await fs.readFile(allowListFile, 'utf8')))
    const findings = report.findings.filter((finding) => finding.file !== CANARY_FILE).map((finding) => ({ ...finding, file: sourceName(finding.file) }))
    const isAllowed = (finding: { check: string; file: string }) => allowed.some((entry) => entry.check === finding.check && entry.file === finding.file)
    const unreviewed = findings
      .filter((finding) => !isAllowed(finding))
      .map(
        (finding) =>
          `${finding.check} in ${finding.file}:${finding.line} (${finding.severity}, ${finding.confidence}): ${finding.description} — ${finding.sample.slice(0, 200)}`,
      )
    expect(unreviewed, 'Fix these, or add them to test/security/electronegativity-allow.json with the reason they are acceptable').toEqual([])
    const stale = allowed.filter((entry) => !findings.some((finding) => finding.check === entry.check && finding.file === entry.file))
    expect(stale, 'These allow-list entries match no finding any more: remove them').toEqual([])
  })
})
