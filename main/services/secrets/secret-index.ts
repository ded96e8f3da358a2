import path from 'node:path'
import { z } from 'zod'
import { writeFileAtomic } from '../files/atomic'
import { refuseUnreadable } from '../files/checked-write'
import { readJsonFile } from '../files/json-file'
import { createSerialQueue } from '../files/serial-queue'

/**
 * Which profiles have a secret in the keychain, kept beside the profiles so that showing the
 * list ("has a password", "needs one") reads no secret from the keychain. It holds keychain
 * account names (a profile id and the servers its secret is bound to) and true/false per
 * keychain service name, never a secret.
 *
 * It is a record of what this store did, not the truth: an entry can go stale (the keychain
 * edited by hand, a write lost to a crash). The secret store corrects it whenever it does read
 * a secret because one is needed, and an account missing here is looked up once (see secret-store).
 */
export interface SecretIndex {
  /** true or false when known, undefined when this account was never recorded. */
  lookup(service: string, account: string): Promise<boolean | undefined>
  record(service: string, account: string, hasSecret: boolean): Promise<void>
  forget(service: string, account: string): Promise<void>
}

export const SECRET_INDEX_FILE_NAME = 'keychain-index.json'

const indexFileSchema = z.object({
  version: z.literal(1),
  services: z.record(z.string(), z.record(z.string(), z.boolean())),
})
type IndexFile = z.infer<typeof indexFileSchema>

export function createSecretIndex(userDataDir: string): SecretIndex {
  const filePath = path.join(userDataDir, SECRET_INDEX_FILE_NAME)
  const serial = createSerialQueue()
  let loaded: Promise<IndexFile> | undefined

  // A corrupt index is moved aside like any of our files; nothing is lost with it, since every
  // entry can be found again in the keychain, so there is nothing to tell the user.
  const read = async (): Promise<IndexFile> => {
    const file = await readJsonFile(filePath, indexFileSchema)
    return file.state === 'ok' ? file.value : { version: 1, services: {} }
  }

  function change(service: string, account: string, hasSecret: boolean | undefined): Promise<void> {
    return serial(async () => {
      // Read afresh: the command line shares this file with the app.
      const file = await read()
      const entries = { ...file.services[service] }
      if (hasSecret === undefined) delete entries[account]
      else entries[account] = hasSecret
      const next: IndexFile = { version: 1, services: { ...file.services, [service]: entries } }
      refuseUnreadable(next, indexFileSchema, 'The keychain index')
      await writeFileAtomic(filePath, `${JSON.stringify(next, null, 2)}\n`)
      loaded = Promise.resolve(next)
    })
  }

  return {
    async lookup(service, account) {
      loaded ??= read()
      const entries = (await loaded).services[service] ?? {}
      return Object.hasOwn(entries, account) ? entries[account] : undefined
    },
    record: (service, account, hasSecret) => change(service, account, hasSecret),
    forget: (service, account) => change(service, account, undefined),
  }
}
