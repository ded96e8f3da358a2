import type { Keychain } from '../../main/services/secrets/keychain'

export interface MemoryKeychain extends Keychain {
  entries: Map<string, string>
  /** Every account whose secret was read (getPassword that found one), in order. */
  reads: string[]
  /** While true every call fails, as a locked keychain or a Secret Service not running yet. */
  locked: boolean
}

/** A keychain in memory for unit tests; integration tests use the real OS keychain. */
export function createMemoryKeychain(): MemoryKeychain {
  const entries = new Map<string, string>()
  const key = (service: string, account: string) => `${service}\u0000${account}`
  const keychain: MemoryKeychain = {
    entries,
    reads: [],
    locked: false,
    async getPassword(service, account) {
      refuseWhileLocked()
      const secret = entries.get(key(service, account)) ?? null
      if (secret !== null) keychain.reads.push(account)
      return secret
    },
    async setPassword(service, account, password) {
      refuseWhileLocked()
      entries.set(key(service, account), password)
    },
    async deletePassword(service, account) {
      refuseWhileLocked()
      return entries.delete(key(service, account))
    },
  }
  function refuseWhileLocked(): void {
    if (keychain.locked) throw new Error('Cannot create an item in a locked collection')
  }
  return keychain
}

/** A keychain whose every call fails, as when no Secret Service runs. */
export function createBrokenKeychain(): Keychain {
  const fail = async (): Promise<never> => {
    throw new Error('Cannot autolaunch D-Bus without X11 $DISPLAY')
  }
  return { getPassword: fail, setPassword: fail, deletePassword: fail }
}
