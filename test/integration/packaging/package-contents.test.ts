import { execFile } from 'node:child_process'
import { promises as fs } from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { listPackage } from '@electron/asar'
import { temporaryFolder } from '../../support/services'

const run = promisify(execFile)
const root = path.join(import.meta.dirname, '..', '..', '..')

/**
 * Packages the app with electron-builder as `npm run dist` would (Linux, unpacked), over a
 * stand-in Electron distribution because the real binary cannot be downloaded here, and
 * checks what went in: the built output and the production dependencies, nothing else.
 */
describe('the packaged app', () => {
  let files: string[]
  let unpacked: string

  beforeAll(async () => {
    await fs.access(path.join(root, 'out', 'main', 'index.js')).catch(() => {
      throw new Error('No build output; run "npm run build" first (npm test does).')
    })
    const electronDist = await temporaryFolder('adops-electron-dist-')
    await fs.writeFile(path.join(electronDist, 'electron'), '#!/bin/sh\necho stand-in electron\n', { mode: 0o755 })
    await fs.writeFile(path.join(electronDist, 'version'), '45.4.1')
    const output = await temporaryFolder('adops-dist-')
    await run(process.execPath, [
      path.join(root, 'node_modules', 'electron-builder', 'cli.js'),
      '--config', 'electron-builder.yml', '--linux', 'dir',
      `-c.electronDist=${electronDist}`, '-c.npmRebuild=false', `-c.directories.output=${output}`,
    ], { cwd: root, env: { ...process.env, CSC_IDENTITY_AUTO_DISCOVERY: 'false' } })
    const app = path.join(output, 'linux-unpacked')
    files = listPackage(path.join(app, 'resources', 'app.asar'), { isPack: false }).map((file) => file.replaceAll('\\', '/'))
    unpacked = path.join(app, 'resources', 'app.asar.unpacked')
    expect(await fs.readdir(app)).toContain('adops-desk')
  }, 120_000)

  it('holds the built main, preload and renderer and the package manifest', () => {
    for (const file of ['/package.json', '/out/main/index.js', '/out/preload/index.cjs', '/out/renderer/index.html']) expect(files).toContain(file)
  })

  it('holds the production dependencies', () => {
    for (const dependency of ['keytar', 'undici', 'zod', 'fflate']) expect(files).toContain(`/node_modules/${dependency}/package.json`)
  })

  it('holds no sources, tests, maps or development tools', () => {
    const offending = files.filter((file) =>
      /^\/(main|preload|renderer|test|build|\.ci)\//.test(file) ||
      file.endsWith('.map') ||
      /^\/node_modules\/(electron|vite|vitest|vue|naive-ui|typescript|@playwright|electron-builder|tsx)\//.test(file),
    )
    expect(offending).toEqual([])
  })

  it('keeps keytar\'s native module outside the archive so it can load', async () => {
    const native = await fs.readdir(path.join(unpacked, 'node_modules', 'keytar', 'build', 'Release'))
    expect(native).toContain('keytar.node')
  })
})
