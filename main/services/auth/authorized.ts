import type { AppError } from '../errors'
import type { TokenProvider } from './token-provider'

/** One try with a token: a value, or the platform's refusal of that token (already read, connection freed). */
export type AuthorizedAttempt<T> = { value: T } | { rejected: AppError }

/**
 * Runs `attempt` with a valid token. When the platform refuses the token (workflow 401,
 * reporting access_error), the token is renewed once and the attempt repeated; a second
 * refusal, or a token that cannot be renewed, ends with the refusal. Never a loop.
 */
export async function authorized<T>(
  tokens: TokenProvider,
  signal: AbortSignal | undefined,
  attempt: (token: string, renewed: boolean) => Promise<AuthorizedAttempt<T>>,
): Promise<T> {
  const first = await tokens.get({ signal })
  const result = await attempt(first.value, false)
  if ('value' in result) return result.value
  const renewed = await tokens.renew(first.value, { signal })
  if (renewed === null) throw result.rejected
  const second = await attempt(renewed.value, true)
  if ('value' in second) return second.value
  throw second.rejected
}
