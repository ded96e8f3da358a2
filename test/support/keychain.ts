// What the OS keychain holds under a service, as the tests read it. Why a read may need a
// process of its own (the one place that says so; docs/decisions/keychain.md has the evidence):
//
// keytar 7.9.0's findCredentials (src/keytar_posix.cc) searches the service's items with
// libsecret, loading their secrets, then copies each item's secret with
// strdup(secret_value_get_text(secret_item_get_secret(item))) without checking for NULL. libsecret
// leaves an item's secret NULL when it could not load it: the item was deleted between the search
// and the load (gnome-keyring skips a path it no longer has), or, as node-keytar#477 reports, it
// sits in a locked collection whose unlock was refused. strdup(NULL) then takes the whole process
// down with SIGSEGV, on a libuv worker thread ("secret_value_get_text: assertion 'value' failed").
// An item deleted a moment earlier fails the read instead ("No such secret item"). Measured under
// test/with-keyring.sh: a reader racing a process that saves and deletes items of the same service
// crashed in 3 runs of 3; racing one that only saves again over the same items (gnome-keyring
// replaces an item in place), or one that deletes items of another service, it never did.
// getPassword, setPassword and deletePassword check for NULL, and the app never lists.
//
// So a read while an app under test may delete an item of the service (a re-pointed connection
// moves its secret to a new account, a deleted one loses its entry) runs in a child process,
// made again when it crashes or meets "No such secret item"; a read once every process writing
// the service has stopped cannot meet the race, and runs here (`afterWritersStopped`).
import { execFile } from 'node:child_process'
import path from 'node:path'
import { loadKeytar, type Keytar } from '../../main/services/secrets/keychain'
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
  /** No process writes this service any more (its hosts have exited): read in this process. */
  afterWritersStopped?: boolean
  /** The keychain an in-process read uses (keytar when not given). */
  keychain?: Pick<Keytar, 'findCredentials' | 'deletePassword'>
}

/**
 * What the keychain holds under a service. While the app may be writing, read in a child
 * process, and made again when it crashes or meets "No such secret item" (the header says
 * why); once its writers have stopped, read in this process. With `clear`, the entries read are
 * deleted too.
 */
export async function storedCredentials(service: string, options: StoredCredentialsOptions = {}): Promise<StoredCredential[]> {
  const { clear = false, reader = READER } = options
  if (options.afterWritersStopped === true) return readHere(options.keychain ?? (await loadKeytar()), service, clear)
  for (let attempt = 1; ; attempt++) {
    try {
      return await readOnce(reader, service, clear)
    } catch (error) {
      const raced = error instanceof KeychainReadError && (error.signal !== null || /No such secret item/.test(error.stderr))
      if (attempt >= ATTEMPTS || !raced) throw error
    }
  }
}

async function readHere(keychain: Pick<Keytar, 'findCredentials' | 'deletePassword'>, service: string, clear: boolean): Promise<StoredCredential[]> {
  const stored = await keychain.findCredentials(service)
  if (clear) for (const { account } of stored) await keychain.deletePassword(service, account)
  return stored
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
