import { execFile } from 'node:child_process'
import { promises as fs } from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { licensesFileSchema } from '../../../main/services/about'
import { temporaryFolder } from '../../support/services'

const run = promisify(execFile)
const root = path.join(import.meta.dirname, '..', '..', '..')

/** build/licenses.mjs run on this repository, after the build (which records what the bundles hold). */
describe('the licenses list generated at build time', () => {
  let packages: Array<{ name: string; version: string; license: string; text: string | null }>
  let manifest: { dependencies: Record<string, string>; devDependencies: Record<string, string> }

  beforeAll(async () => {
    await fs.access(path.join(root, 'out', 'bundled-packages.renderer.json')).catch(() => {
      throw new Error('No build output; run "npm run build" first (npm test does).')
    })
    const out = path.join(await temporaryFolder(), 'licenses.json')
    await run(process.execPath, [path.join(root, 'build', 'licenses.mjs'), '--root', root, '--out', out])
    packages = licensesFileSchema.parse(JSON.parse(await fs.readFile(out, 'utf8'))).packages
    manifest = JSON.parse(await fs.readFile(path.join(root, 'package.json'), 'utf8')) as typeof manifest
  })

  it('lists the production dependencies and their own dependencies', () => {
    const names = packages.map((entry) => entry.name)
    for (const name of Object.keys(manifest.dependencies)) expect(names).toContain(name)
    // keytar's own dependency tree ships with it.
    expect(names).toContain('node-addon-api')
  })

  it('lists what the renderer and preload bundles hold, at the installed versions', async () => {
    const bundled = ['vue', 'pinia', 'naive-ui', 'zod']
    for (const name of bundled) {
      const entry = packages.find((candidate) => candidate.name === name)
      const installed = JSON.parse(await fs.readFile(path.join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }
      expect(entry, name).toMatchObject({ version: installed.version, license: 'MIT' })
    }
    // Every package the renderer's bundle was built from is listed (the build's own record).
    const recorded = JSON.parse(await fs.readFile(path.join(root, 'out', 'bundled-packages.renderer.json'), 'utf8')) as string[]
    const names = new Set(packages.map((entry) => entry.name))
    for (const key of recorded) expect(names, key).toContain(key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length))
  })

  it('leaves out the tools that build the app but do not ship in it', () => {
    const names = packages.map((entry) => entry.name)
    for (const tool of ['electron', 'vite', 'vitest', 'typescript', 'electron-builder', '@vue/compiler-sfc', 'eslint']) expect(names).not.toContain(tool)
  })

  it("carries each package's license, with its text when the package ships one", async () => {
    expect(packages.filter((entry) => entry.license === 'UNKNOWN').map((entry) => entry.name)).toEqual([])
    // png-js (under pdfkit) declares no license in its manifest; its LICENSE file's title says MIT.
    expect(packages.find((entry) => entry.name === 'png-js')).toMatchObject({ license: 'MIT', text: expect.stringMatching(/^MIT License/) })
    const vue = packages.find((entry) => entry.name === 'vue')
    expect(vue?.text).toMatch(/Permission is hereby granted, free of charge/)
    // Counted over the packages installed here: the other platforms' native builds (resvg's, DuckDB's)
    // are listed from the lockfile but never on this disk, so their text cannot be read here.
    const installed: typeof packages = []
    for (const entry of packages)
      if (
        await fs.stat(path.join(root, 'node_modules', entry.name)).then(
          () => true,
          () => false,
        )
      )
        installed.push(entry)
    const withText = installed.filter((entry) => entry.text !== null).length
    expect(withText / installed.length).toBeGreaterThan(0.8)
  })
})
