import { promises as fs } from 'node:fs'
import path from 'node:path'

/**
 * The log scan every e2e test ends with (test/e2e/fixtures.ts): what the app wrote to its log
 * folder during the test, read back and searched for the secrets it was given.
 */

/** The text of every file in `<userData>/logs` (rotated ones too); empty when there is none. */
export async function readLogs(userDataDir: string): Promise<string> {
  const folder = path.join(userDataDir, 'logs')
  const names = await fs.readdir(folder).catch(() => [])
  const texts = await Promise.all(names.map((name) => fs.readFile(path.join(folder, name), 'utf8')))
  return texts.join('\n')
}

/** Shapes of a secret whatever its value: a bearer header, or a password or token field with a value (masked ones are `***`). */
const SECRET_SHAPES = [/Bearer\s+[A-Za-z0-9._~+/-]{8,}/i, /"(?:password|access_token|refresh_token|token)"\s*:\s*"[^"*]{4,}"/i]

/** Throws, naming no secret, when the log holds one of `secrets` or something shaped like one; an empty log proves nothing and throws too. */
export function assertLogHasNoSecrets(log: string, secrets: readonly string[]): void {
  if (!log.includes(' INFO ')) throw new Error('the host wrote no log: the secret scan would prove nothing')
  for (const secret of secrets) {
    if (secret.length >= 6 && log.includes(secret)) throw new Error(`a secret the app was given is in its log (${secret.slice(0, 2)}…)`)
  }
  for (const shape of SECRET_SHAPES) {
    // The pattern is named, never the match: the failure message must not carry the secret on.
    if (shape.test(log)) throw new Error(`the log holds something shaped like a secret (${shape.source})`)
  }
}
