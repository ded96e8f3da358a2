import { spawn } from 'node:child_process'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../../main/sandbox'
import { startPlatformProxy, type PlatformProxy } from '../exports/platform-proxy'
import { freshBuild } from '../../support/child-process'

/**
 * Ctrl-C in the middle of `report export`: the command line runs as its own process (its
 * build in Node, as `npm run cli` starts it, so the signal reaches it directly) against a platform
 * that sends the start of the file and then stalls, like a slow link.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..')

let sandbox: Sandbox
let proxy: PlatformProxy
let userData: string

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 })
  proxy = await startPlatformProxy(sandbox.info.report_url)
  userData = await mkdtemp(path.join(os.tmpdir(), 'adops-cli-interrupt-'))
})
afterAll(async () => {
  await proxy.close()
  await sandbox.close()
  await rm(userData, { recursive: true, force: true })
})

describe('report export interrupted', () => {
  it('Ctrl-C mid-stream exits 130 and leaves no file, not even a temporary one', async () => {
    proxy.mode = { kind: 'stall' }
    const folder = await mkdtemp(path.join(os.tmpdir(), 'adops-cli-out-'))
    const out = path.join(folder, 'pages.csv')
    const request = {
      project_name: 'demo',
      slicer_name: 'supply',
      start_date: '-7d',
      end_date: 'yesterday',
      split_by: ['page_url'],
      export_format: 'csv',
      data_fields: ['impressions'],
    }
    const flags = [
      '--base-url',
      sandbox.info.base_url,
      '--auth-url',
      sandbox.info.auth_url,
      '--report-url',
      proxy.reportUrl,
      '--service-id',
      'demo',
      '--username',
      'demo',
    ]
    const child = spawn(process.execPath, [freshBuild('out/cli/index.js'), 'report', 'export', '--request', '-', '--out', out, '--progress', ...flags], {
      cwd: root,
      env: { ...process.env, ADOPS_USER_DATA: userData, ADOPS_KEYCHAIN_SERVICE: 'AdOps Desk interrupt test', ADOPS_PASSWORD: 'demo' },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    child.stdin.end(JSON.stringify(request))
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve))
    // The progress line counts the first bytes: the download is under way, its temporary file open.
    await new Promise<void>((resolve) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString()
        if (/\d KB {2}\d[\d,]* rows/.test(stderr)) resolve()
      })
      child.once('close', () => resolve())
    })
    expect((await readdir(folder)).filter((name) => name.endsWith('.tmp'))).toHaveLength(1)
    const closedBefore = proxy.closedStalls
    child.kill('SIGINT')
    const code = await exited
    expect(code).toBe(130)
    expect(stdout).toBe('')
    expect(stderr.trimEnd().split('\n').at(-1)).toBe('adops-desk: Interrupted.')
    expect(await readdir(folder)).toEqual([])
    // The download was closed, not left hanging on the platform.
    while (proxy.closedStalls === closedBefore) await new Promise((resolve) => setImmediate(resolve))
    await rm(folder, { recursive: true, force: true })
  })
})
