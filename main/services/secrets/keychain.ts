/**
 * The OS keychain as the secret store sees it: one secret per (service, account), nothing
 * more. keytar is the implementation today; anything offering these three calls (a maintained
 * successor, a test's in-memory map, a failing one for the "unavailable" path) can replace it.
 * No call lists or bulk-reads secrets: the store never needs to see a secret it was not asked for.
 */
export interface Keychain {
  /** The secret, or null when there is none under that account. */
  getPassword(service: string, account: string): Promise<string | null>
  setPassword(service: string, account: string, password: string): Promise<void>
  /** Whether there was an entry to delete. */
  deletePassword(service: string, account: string): Promise<boolean>
}

/** keytar's module: a Keychain, plus the listing tests use to clean up their own service's entries. */
export interface Keytar extends Keychain {
  findCredentials(service: string): Promise<Array<{ account: string; password: string }>>
}

/**
 * Loads keytar lazily: a missing or mis-built native module (or no Secret Service on a
 * Linux desktop) must not stop the app from starting; the secret store reports it instead.
 */
export async function loadKeytar(): Promise<Keytar> {
  const module = (await import('keytar')) as unknown as { default?: Keytar } & Keytar
  return module.default ?? module
}
