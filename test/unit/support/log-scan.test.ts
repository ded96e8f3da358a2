import { describe, expect, it } from 'vitest'
import { assertLogHasNoSecrets } from '../../support/log-scan'

const clean = [
  '2026-11-23T10:00:00.000Z INFO  AdOps Desk 0.1.0 started {"platform":"linux"}',
  '2026-11-23T10:00:01.000Z DEBUG signed in {"profile":"p1","method":"password","password":"***"}',
].join('\n')

describe('the e2e log scan', () => {
  it('passes a log with masked fields only', () => {
    expect(() => assertLogHasNoSecrets(clean, ['correct-horse-BATTERY-staple-9'])).not.toThrow()
  })

  it('finds a secret the app was given, without repeating it', () => {
    const leaked = `${clean}\n2026-11-23T10:00:02.000Z DEBUG request body correct-horse-BATTERY-staple-9`
    expect(() => assertLogHasNoSecrets(leaked, ['correct-horse-BATTERY-staple-9'])).toThrow(/a secret the app was given is in its log \(co…\)$/)
  })

  it('finds secret-shaped text whatever its value', () => {
    expect(() => assertLogHasNoSecrets(`${clean}\nDEBUG headers Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.abc`, [])).toThrow(/shaped like a secret/)
    expect(() => assertLogHasNoSecrets(`${clean}\nDEBUG body {"token":"perm-123456"}`, [])).toThrow(/shaped like a secret/)
  })

  it('refuses to pass an empty log: a scan of nothing proves nothing', () => {
    expect(() => assertLogHasNoSecrets('', [])).toThrow(/wrote no log/)
  })
})
