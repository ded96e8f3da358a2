import { execFile } from 'node:child_process'
import { promises as fs } from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { temporaryFolder } from '../../support/services'

const root = path.join(import.meta.dirname, '..', '..', '..')
const builtMain = path.join(root, 'out', 'main', 'index.js')
const register = path.join(root, 'test', 'support', 'stand-in-electron', 'register.mjs')

interface Outcome {
  code: number
  stdout: string
  stderr: string
}

/** Runs the built main (what the packaged app loads) in Node, with a stand-in electron module. */
function runBuiltMain(args: string[], env: Record<string, string>): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', register, builtMain, ...args], { cwd: root, env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1
      resolve({ code, stdout, stderr })
    })
  })
}

/**
 * The packaged binary runs the command line from the app's own main (main/index.ts), not in
 * Node mode, which the runAsNode fuse switches off (electron-builder.yml). This proves that
 * path works from the build output, as `adops-desk <command>` and as `electron . <command>`.
 */
describe('the built main as a command line', () => {
  let userData: string

  beforeAll(async () => {
    await fs.access(builtMain).catch(() => {
      throw new Error('No build output; run "npm run build" first (npm test does).')
    })
    userData = await temporaryFolder('adops-packaged-cli-')
  })

  it('prints the help when the packaged binary is given --help', async () => {
    const run = await runBuiltMain(['--help'], { STAND_IN_PACKAGED: '1' })
    expect(run.stderr).not.toContain('stand-in electron')
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^Usage: adops-desk/m)
    expect(run.stdout).toContain('entities list')
  })

  it('runs a command with the packaged binary and from source (electron . <command>)', async () => {
    for (const packaged of ['1', '0']) {
      const run = await runBuiltMain(['profiles', 'list'], {
        STAND_IN_PACKAGED: packaged,
        ADOPS_USER_DATA: userData,
        ADOPS_KEYCHAIN_SERVICE: 'AdOps Desk packaged CLI test',
      })
      expect(run.stderr, `packaged=${packaged}`).toBe('')
      expect(run.code).toBe(0)
      expect(JSON.parse(run.stdout)).toEqual([])
    }
  })

  it('starts the app, not the command line, without a command', async () => {
    const run = await runBuiltMain([], { STAND_IN_PACKAGED: '1', ADOPS_USER_DATA: userData })
    expect(run.stdout).toBe('')
    // The stand-in cannot open windows: reaching it is the proof the app path was taken.
    expect(run.stderr).toContain('the app was started instead of the command line')
    expect(run.code).toBe(1)
  })
})
