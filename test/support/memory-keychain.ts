import type { Keychain } from '../../main/services/secrets/keychain'

/** A keychain in memory for unit tests; integration tests use the real OS keychain. */
export function createMemoryKeychain(): Keychain & { entries: Map<string, string> } {
  const entries = new Map<string, string>()
  const key = (service: string, account: string) => `${service}\u0000${account}`
  return {
    entries,
    async getPassword(service, account) {
      return entries.get(key(service, account)) ?? null
    },
    async setPassword(service, account, password) {
      entries.set(key(service, account), password)
    },
    async deletePassword(service, account) {
      return entries.delete(key(service, account))
    },
    async findCredentials(service) {
      return [...entries]
        .filter(([name]) => name.startsWith(`${service}\u0000`))
        .map(([name, password]) => ({ account: name.split('\u0000')[1] as string, password }))
    },
  }
}

/** A keychain whose every call fails, as when no Secret Service runs. */
export function createBrokenKeychain(): Keychain {
  const fail = async (): Promise<never> => {
    throw new Error('Cannot autolaunch D-Bus without X11 $DISPLAY')
  }
  return { getPassword: fail, setPassword: fail, deletePassword: fail, findCredentials: fail }
}
