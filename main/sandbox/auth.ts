import { randomBytes } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { sendJson } from './http'

export interface SandboxUser {
  name: string
  /** Read-only users get 403 on Workflow writes. */
  canWrite: boolean
}

export const SERVICE_ID = 'demo'

/** Who may sign in: a writing user, a read-only one, and the writing user's permanent token. */
export interface SandboxCredentials {
  password: string
  viewerPassword: string
  permanentToken: string
}

/** The standalone sandbox's well-known credentials (scripts and tests rely on them). */
export const DEMO_CREDENTIALS: SandboxCredentials = { password: 'demo', viewerPassword: 'viewer', permanentToken: 'demo-permanent-token' }

/** Fresh credentials nobody can guess, for a sandbox that other local programs must not use. */
export function randomCredentials(): SandboxCredentials {
  const secret = (): string => randomBytes(24).toString('base64url')
  return { password: secret(), viewerPassword: secret(), permanentToken: `sbx_permanent_${secret()}` }
}

/** Issues and checks tokens; the clock and the lifetime are passed in so tests can move them. */
export class TokenService {
  private readonly tokens = new Map<string, { user: SandboxUser; expiresAt: number }>()
  private readonly users: ReadonlyArray<SandboxUser & { password: string }>
  private readonly permanentToken: string

  constructor(
    private readonly now: () => Date,
    private readonly lifetimeSeconds: () => number,
    credentials: SandboxCredentials,
  ) {
    this.users = [
      { name: 'demo', password: credentials.password, canWrite: true },
      { name: 'viewer', password: credentials.viewerPassword, canWrite: false },
    ]
    this.permanentToken = credentials.permanentToken
  }

  issue(user: SandboxUser): { token: string; expiresIn: number } {
    const expiresIn = this.lifetimeSeconds()
    const token = `sbx_${randomBytes(24).toString('base64url')}`
    this.tokens.set(token, { user, expiresAt: this.now().getTime() + expiresIn * 1000 })
    return { token, expiresIn }
  }

  /** The token's user, or null when the token is unknown or expired. */
  verify(token: string | undefined): SandboxUser | null {
    if (!token) return null
    if (token === this.permanentToken) return this.users[0] ?? null
    const entry = this.tokens.get(token)
    if (!entry) return null
    if (this.now().getTime() >= entry.expiresAt) {
      this.tokens.delete(token)
      return null
    }
    return entry.user
  }

  /** POST {auth_url}/oauth2/token/ — the OAuth2 password grant. */
  handleTokenRequest(request: IncomingMessage, response: ServerResponse, body: Buffer): void {
    const oauthError = (status: number, error: string, description: string): void =>
      sendJson(response, status, { error, error_description: description }, { 'Cache-Control': 'no-store' })
    if (request.method !== 'POST') {
      sendJson(response, 405, { error: 'invalid_request', error_description: `Method ${request.method ?? ''} is not allowed; use POST.` }, { Allow: 'POST' })
      return
    }
    const contentType = request.headers['content-type'] ?? ''
    if (!contentType.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
      oauthError(400, 'invalid_request', 'The body must be application/x-www-form-urlencoded.')
      return
    }
    const form = new URLSearchParams(body.toString('utf8'))
    const grantType = form.get('grant_type')
    if (grantType !== 'password') {
      oauthError(
        400,
        grantType ? 'unsupported_grant_type' : 'invalid_request',
        grantType ? `Grant type '${grantType}' is not supported; use password.` : 'grant_type is required.',
      )
      return
    }
    const username = form.get('username')
    const password = form.get('password')
    const scope = form.get('scope')
    for (const [name, value] of [
      ['username', username],
      ['password', password],
      ['scope', scope],
    ] as const) {
      if (!value) {
        oauthError(400, 'invalid_request', `${name} is required.`)
        return
      }
    }
    if (scope !== `service_id=${SERVICE_ID}`) {
      oauthError(400, 'invalid_scope', `Scope '${scope ?? ''}' is not valid; use service_id=${SERVICE_ID}.`)
      return
    }
    const user = this.users.find((candidate) => candidate.name === username && candidate.password === password)
    if (!user) {
      oauthError(401, 'invalid_grant', 'Invalid username or password.')
      return
    }
    const { token, expiresIn } = this.issue({ name: user.name, canWrite: user.canWrite })
    sendJson(response, 200, { token_type: 'Bearer', scope, access_token: token, expires_in: expiresIn }, { 'Cache-Control': 'no-store' })
  }
}
