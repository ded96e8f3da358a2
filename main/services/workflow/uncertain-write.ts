import { AppError } from '../errors'
import { networkFailureOf, neverSent } from '../http/network-codes'

/**
 * A write that timed out or lost its connection after it was sent may or may not have been
 * applied. Writes are never repeated automatically, so the user is told to look before retrying.
 */
export function uncertainWrite(error: unknown): unknown {
  if (!(error instanceof AppError)) return error
  const details = error.details ?? {}
  // Already said what is known about the outcome (for example "probably created").
  if (details.outcome !== undefined) return error
  const errorCode = typeof details.errorCode === 'string' ? details.errorCode : null
  const gatewayTimeout = details.httpStatus === 504
  const lostAfterSending = (error.code === 'network' || error.code === 'timeout') && !neverSent(networkFailureOf(errorCode))
  if (!gatewayTimeout && !lostAfterSending) return error
  return new AppError(error.code, `${error.message} The change may or may not have been applied; refresh and check before trying again.`, {
    ...details,
    outcome: 'unknown',
  })
}
