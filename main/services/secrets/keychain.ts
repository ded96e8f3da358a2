/**
 * The OS keychain as the secret store sees it. keytar is the real one; tests may pass
 * a failing one to exercise the "keychain unavailable" path without breaking the OS.
 */
export interface Keychain {
  getPassword(service: string, account: string): Promise<string | null>
  setPassword(service: string, account: string, password: string): Promise<void>
  deletePassword(service: string, account: string): Promise<boolean>
  findCredentials(service: string): Promise<Array<{ account: string; password: string }>>
}

/**
 * Loads keytar lazily: a missing or mis-built native module (or no Secret Service on a
 * Linux desktop) must not stop the app from starting; the secret store reports it instead.
 */
export async function loadKeytar(): Promise<Keychain> {
  const module = (await import('keytar')) as unknown as { default?: Keychain } & Keychain
  return module.default ?? module
}
