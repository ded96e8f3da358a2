import type { ApiErrorShape, ErrorCode } from '@contract'
import { publicErrorShape, type ErrorFacts, type RawErrorShape } from './error-shape'

/**
 * The one error type services throw. `message` is a sentence a user can act on;
 * `details` keeps the facts (HTTP code, API status, field errors, wait time)
 * for the details view and for tests.
 */
export class AppError extends Error {
  readonly code: ErrorCode
  readonly details: ErrorFacts | undefined

  constructor(code: ErrorCode, message: string, details?: ErrorFacts) {
    super(message)
    this.name = 'AppError'
    this.code = code
    this.details = details
  }

  toShape(): RawErrorShape {
    return this.details === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, details: this.details }
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError
}

/**
 * Anything thrown becomes a wire error for the page: unknown failures never leak stack traces,
 * and every error keeps only the detail keys the page may see, bounded and clean (error-shape.ts).
 */
export function toErrorShape(error: unknown): ApiErrorShape {
  if (isAppError(error)) return publicErrorShape(error.toShape())
  const detail = error instanceof Error ? error.message : String(error)
  return publicErrorShape({
    code: 'internal',
    message: 'Something went wrong inside AdOps Desk. Try again; if it keeps happening, restart the app.',
    details: { error: detail },
  })
}
