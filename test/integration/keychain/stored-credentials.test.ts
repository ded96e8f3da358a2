import { promises as fs } from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { randomUUID } from 'node:crypto'
import { loadKeytar } from '../../../main/services/secrets/keychain'
import { storedCredentials, type StoredCredential } from '../../support/keychain'
import { temporaryFolder } from '../../support/services'

/**
 * The tests' keychain read runs in a child process because keytar can crash the process reading
 * while the app replaces an item (test/support/keychain-read.mjs). These stand-in readers crash or
 * fail the way keytar does, a given number of times, then answer.
 */
describe('storedCredentials', () => {
  const cleanups: Array<() => Promise<void>> = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup()
  })

  async function standInReader(failures: number, failure: 'segfault' | 'no-such-item' | 'locked'): Promise<{ reader: string; runs: () => Promise<number> }> {
    const folder = await temporaryFolder('keychain-reader-')
    cleanups.push(() => fs.rm(folder, { recursive: true, force: true }))
    const counter = path.join(folder, 'runs')
    await fs.writeFile(counter, '0')
    const reader = path.join(folder, 'reader.mjs')
    const fail = {
      segfault: `process.kill(process.pid, 'SIGSEGV')`,
      'no-such-item': `process.stderr.write('Error: No such secret item at path: /org/freedesktop/secrets/collection/login/7'); process.exit(1)`,
      locked: `process.stderr.write('Error: Cannot create an item in a locked collection'); process.exit(1)`,
    }[failure]
    await fs.writeFile(
      reader,
      `import { readFileSync, writeFileSync } from 'node:fs'
const runs = Number(readFileSync(${JSON.stringify(counter)}, 'utf8')) + 1
writeFileSync(${JSON.stringify(counter)}, String(runs))
if (runs <= ${failures}) { ${fail} }
else process.stdout.write(JSON.stringify([{ account: process.argv[2] + ' ' + process.argv[3], password: 'secret' }]))
`,
    )
    return { reader, runs: async () => Number(await fs.readFile(counter, 'utf8')) }
  }

  it('reads again when the reading process crashes, and answers what the next read found', async () => {
    const { reader, runs } = await standInReader(2, 'segfault')
    expect(await storedCredentials('Service', { reader })).toEqual([{ account: 'list Service', password: 'secret' }])
    expect(await runs()).toBe(3)
  })

  it('reads again after "No such secret item", and passes clear on', async () => {
    const { reader, runs } = await standInReader(1, 'no-such-item')
    expect(await storedCredentials('Service', { reader, clear: true })).toEqual([{ account: 'clear Service', password: 'secret' }])
    expect(await runs()).toBe(2)
  })

  it('gives up after five crashes, saying how the read ended', async () => {
    const { reader, runs } = await standInReader(9, 'segfault')
    await expect(storedCredentials('Service', { reader })).rejects.toThrow(/Reading the keychain failed \(SIGSEGV\)/)
    expect(await runs()).toBe(5)
  })

  it('does not retry any other failure', async () => {
    const { reader, runs } = await standInReader(9, 'locked')
    await expect(storedCredentials('Service', { reader })).rejects.toThrow(/locked collection/)
    expect(await runs()).toBe(1)
  })

  it('reads in this process once no other process writes the service, starting no reader', async () => {
    const { reader, runs } = await standInReader(9, 'segfault')
    const held = new Map([['one for https://a.example', 'secret-1']])
    const keychain = {
      findCredentials: async (): Promise<StoredCredential[]> => [...held].map(([account, password]) => ({ account, password })),
      deletePassword: async (_service: string, account: string) => held.delete(account),
    }
    const stored = await storedCredentials('Service', { reader, afterWritersStopped: true, keychain, clear: true })
    expect(stored).toEqual([{ account: 'one for https://a.example', password: 'secret-1' }])
    expect(held.size).toBe(0)
    expect(await runs()).toBe(0)
  })

  it('reads and clears the real keychain in this process once its writers have stopped', async () => {
    const service = `AdOps Desk test ${randomUUID()}`
    const keytar = await loadKeytar()
    await keytar.setPassword(service, 'one', 'secret-1')
    await keytar.setPassword(service, 'two', 'secret-2')
    const stored = await storedCredentials(service, { afterWritersStopped: true, clear: true })
    expect(stored.map((entry) => entry.password).sort()).toEqual(['secret-1', 'secret-2'])
    expect(await keytar.findCredentials(service)).toEqual([])
  })
})
