/**
 * Keeps secrets out of what the command line prints about failures. Messages are built from
 * many places, some outside our control (a server's error body may quote the request back), so
 * every line for stderr passes through here: the secrets this run knows (ADOPS_PASSWORD,
 * ADOPS_TOKEN, a saved connection's secret once read) become `***`, and so does the user
 * information of any address (`https://user:password@host`).
 */
export interface Redactor {
  /** A secret to hide from now on (empty values are ignored). */
  add(secret: string | undefined): void
  redact(text: string): string
}

const MASK = '***'
const USER_INFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]*@/gi

export function createRedactor(initial: ReadonlyArray<string | undefined> = []): Redactor {
  const secrets = new Set<string>()
  const redactor: Redactor = {
    add(secret) {
      if (secret === undefined || secret.trim() === '') return
      // As given, as sent (a token is trimmed) and as it looks inside a URL or a form body.
      for (const form of [secret, secret.trim()]) {
        secrets.add(form)
        secrets.add(encodeURIComponent(form))
      }
    },
    redact(text) {
      let clean = text
      // Longest first, so a secret that contains another is hidden whole.
      for (const secret of [...secrets].sort((a, b) => b.length - a.length)) clean = clean.split(secret).join(MASK)
      return clean.replace(USER_INFO, `$1${MASK}@`)
    },
  }
  for (const secret of initial) redactor.add(secret)
  return redactor
}
