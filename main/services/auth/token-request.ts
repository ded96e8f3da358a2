import { z } from 'zod'
import { AppError } from '../errors'
import { readBody, readErrorBody, type HttpClient } from '../http/client'
import { errorFromHttp, signInRejected, unreadableBody } from '../http/errors'
import { reasonOf } from '../http/reasons'

/** The platform documents a one-hour lifetime; used only when a token answer leaves `expires_in` out. */
export const DEFAULT_TOKEN_LIFETIME_SECONDS = 3600

const tokenAnswerSchema = z.looseObject({
  access_token: z.string().min(1),
  expires_in: z
    .union([
      z.number(),
      z
        .string()
        .regex(/^\d+(\.\d+)?$/)
        .transform(Number),
    ])
    .optional(),
  token_type: z.string().optional(),
  scope: z.string().optional(),
})

export interface PasswordGrant {
  http: HttpClient
  authUrl: string
  serviceId: string
  username: string
  password: string
  signal?: AbortSignal
}

export interface IssuedToken {
  accessToken: string
  expiresInSeconds: number
}

export function tokenEndpoint(authUrl: string): string {
  return `${authUrl.replace(/\/+$/, '')}/oauth2/token/`
}

/** OAuth2 password grant against `{auth_url}/oauth2/token/`, scoped to one service id. */
export async function requestPasswordToken(grant: PasswordGrant): Promise<IssuedToken> {
  const form = new URLSearchParams({
    grant_type: 'password',
    username: grant.username,
    password: grant.password,
    scope: `service_id=${grant.serviceId}`,
  })
  const response = await grant.http.request({
    method: 'POST',
    url: tokenEndpoint(grant.authUrl),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    // Asking for a token changes nothing on the server, so it may be repeated like a read.
    read: true,
    signal: grant.signal,
    secrets: [grant.password],
  })

  if (response.status < 200 || response.status >= 300) {
    const body = await readErrorBody(response)
    const failure = { status: response.status, headers: response.headers, body, context: response.context }
    // OAuth answers a bad password or an unknown scope with 400 (invalid_grant / invalid_scope).
    if (response.status === 400 || response.status === 401 || response.status === 403) {
      throw signInRejected(reasonOf(body), {
        httpStatus: response.status,
        url: response.context.url,
        serviceId: grant.serviceId,
        body: body.kind === 'json' ? body.value : undefined,
      })
    }
    throw errorFromHttp(failure)
  }

  const body = await readBody(response, grant.signal)
  if (body.kind !== 'json') throw unreadableBody(body, response.status, response.context)
  const parsed = tokenAnswerSchema.safeParse(body.value)
  if (!parsed.success) {
    throw new AppError('bad_response', "The sign-in service answered without a usable token. Check the connection's sign-in address.", {
      httpStatus: response.status,
      url: response.context.url,
      issues: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`),
    })
  }
  return { accessToken: parsed.data.access_token, expiresInSeconds: parsed.data.expires_in ?? DEFAULT_TOKEN_LIFETIME_SECONDS }
}
