import { execFile } from 'node:child_process'
import path from 'node:path'
import { repositoryRoot } from './child-process'

export interface StoredCredential {
  account: string
  password: string
}

const READER = path.join(repositoryRoot, 'test', 'support', 'keychain-read.mjs')
const ATTEMPTS = 5

export interface StoredCredentialsOptions {
  /** Deletes the entries read, too. */
  clear?: boolean
  /** The script that reads (a test stands in one that crashes). */
  reader?: string
}

/**
 * What the keychain holds under a service, read in a child process while the app may be writing
 * (keychain-read.mjs says why a read can crash). libsecret may also fail the read outright with
 * "No such secret item" in that race. Either way the read is simply made again. With `clear`,
 * the entries read are deleted too.
 */
export async function storedCredentials(service: string, { clear = false, reader = READER }: StoredCredentialsOptions = {}): Promise<StoredCredential[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await readOnce(reader, service, clear)
    } catch (error) {
      const raced = error instanceof KeychainReadError && (error.signal !== null || /No such secret item/.test(error.stderr))
      if (attempt >= ATTEMPTS || !raced) throw error
    }
  }
}

class KeychainReadError extends Error {
  constructor(
    readonly signal: string | null,
    readonly stderr: string,
  ) {
    super(`Reading the keychain failed${signal === null ? '' : ` (${signal})`}: ${stderr.trim()}`)
  }
}

function readOnce(reader: string, service: string, clear: boolean): Promise<StoredCredential[]> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [reader, clear ? 'clear' : 'list', service], { cwd: repositoryRoot, timeout: 20_000 }, (error, stdout, stderr) => {
      if (error !== null) {
        reject(new KeychainReadError(error.signal ?? null, stderr))
        return
      }
      resolve(JSON.parse(stdout) as StoredCredential[])
    })
  })
}
