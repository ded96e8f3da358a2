import { randomUUID } from 'node:crypto'
import { promises as fs } from 'node:fs'
import path from 'node:path'
import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readPreviewArguments } from '../../../main/hosts/web/preview-arguments'
import { loadKeytar, type Keytar } from '../../../main/services/secrets/keychain'
import { spawnBuilt } from '../../support/child-process'
import { storedCredentials } from '../../support/keychain'
import { passwordProfile, temporaryFolder } from '../../support/services'

/** `npm run preview:web` as a process: what it refuses to start with, and what it leaves behind. */

let rendererDir: string
beforeAll(async () => {
  rendererDir = await temporaryFolder('adops-renderer-')
  await fs.writeFile(path.join(rendererDir, 'index.html'), '<!doctype html><html><head><title>AdOps Desk</title></head><body></body></html>')
})

const preview = (args: string[], env: Record<string, string> = {}) =>
  spawnBuilt('out/web/preview-web.js', ['--port', '0', '--renderer', rendererDir, ...args], { env })

describe('preview:web arguments', () => {
  it.each(['0.0.0.0', '192.168.1.10', '::'])('refuses the non-loopback address %s with a sentence', (address) => {
    const read = readPreviewArguments(['--host', address], {})
    expect(read).toMatchObject({ kind: 'usage-error' })
    expect(read.kind === 'usage-error' ? read.message : '').toMatch(/--host must be a loopback address \(127\.0\.0\.1, localhost or ::1\)/)
  })

  it('refuses a port out of range, an unknown option and an unknown retry profile; reads the rest', () => {
    expect(readPreviewArguments(['--port', '70000'], {})).toMatchObject({
      kind: 'usage-error',
      message: expect.stringMatching(/^--port must be a whole number/),
    })
    expect(readPreviewArguments(['--colour', 'blue'], {})).toMatchObject({ kind: 'usage-error', message: expect.stringMatching(/--colour/) })
    expect(readPreviewArguments([], { ADOPS_RETRY_PROFILE: 'slow' })).toMatchObject({
      kind: 'usage-error',
      message: expect.stringMatching(/ADOPS_RETRY_PROFILE/),
    })
    expect(readPreviewArguments(['--port', '0', '--host', '::1', '--user-data', 'here'], { ADOPS_RETRY_PROFILE: 'fast' })).toEqual({
      kind: 'run',
      options: { port: 0, host: '::1', userDataDir: 'here', rendererDir: null, retryProfile: 'fast', engineWarmUp: true },
    })
  })

  it('reads ADOPS_ENGINE_WARM_UP: on (the default) or off; anything else is refused with a sentence', () => {
    expect(readPreviewArguments([], { ADOPS_ENGINE_WARM_UP: 'off' })).toMatchObject({ kind: 'run', options: { engineWarmUp: false } })
    expect(readPreviewArguments([], { ADOPS_ENGINE_WARM_UP: 'on' })).toMatchObject({ kind: 'run', options: { engineWarmUp: true } })
    expect(readPreviewArguments([], { ADOPS_ENGINE_WARM_UP: 'no' })).toEqual({
      kind: 'usage-error',
      message: 'ADOPS_ENGINE_WARM_UP must be on or off, got "no"',
    })
  })

  // One process for what only a process shows: the exit code, and that it never listened.
  it('exits 2 on a non-loopback --host without listening', async () => {
    const child = preview(['--host', '0.0.0.0'])
    try {
      // Listening would print the address; refusing ends the process first.
      const outcome = await Promise.race([child.exit, child.line(/preview at/).then(() => 'listening' as const)])
      expect(outcome).toBe(2)
      expect(child.stderr()).toMatch(/--host must be a loopback address/)
      expect(child.stdout()).not.toMatch(/preview at/)
    } finally {
      child.child.kill('SIGKILL')
    }
  })
})

describe('preview:web secrets (the real OS keychain)', () => {
  let keytar: Keytar
  beforeAll(async () => {
    keytar = await loadKeytar()
    await keytar.findCredentials('AdOps Desk (web preview)').catch((error: unknown) => {
      throw new Error(`The OS keychain is not reachable (${String(error)}). Run the tests through test/with-keyring.sh.`)
    })
  })
  const created: string[] = []
  afterAll(async () => {
    for (const account of created) await keytar.deletePassword('AdOps Desk (web preview)', account).catch(() => false)
  })

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`files them under its own service name, never the app's, and removes them on ${signal}`, async () => {
      const child = preview([])
      try {
        const [, url = ''] = await child.line(/preview at (http:\/\/\S+\/)/)
        const own = new URL(url)
        const page = await (await request(url)).body.text()
        const token = /<meta name="adops-host-token" content="([0-9a-f]+)"/.exec(page)?.[1] ?? ''
        const answer = await request(new URL('/__host/invoke/profiles:create', url), {
          method: 'POST',
          headers: { origin: own.origin, 'content-type': 'application/json', 'x-adops-host-token': token },
          body: JSON.stringify({ ...passwordProfile, name: `Preview ${randomUUID()}` }),
        })
        const result = JSON.parse(await answer.body.text()) as { ok: boolean; value: { id: string } }
        expect(result.ok).toBe(true)
        created.push(result.value.id)
        // Secrets are filed as "<profile id> for <origins>" (bound to the connection's addresses).
        const filed = async (service: string) => (await storedCredentials(service)).filter((entry) => entry.account.startsWith(`${result.value.id} for `))
        expect((await filed('AdOps Desk (web preview)')).map((entry) => entry.password)).toEqual([passwordProfile.auth.password])
        expect(await filed('AdOps Desk')).toEqual([])

        expect(await child.stop(signal)).toBe(0)
        expect(await filed('AdOps Desk (web preview)')).toEqual([])
      } finally {
        child.child.kill('SIGKILL')
      }
    })
  }
})
