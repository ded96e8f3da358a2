import type { Api, ApiErrorShape, ErrorCode, ErrorDetails, Outcome } from '@contract'

declare global {
  interface Window {
    /** Put there by the preload (Electron) or the web host's bridge; the renderer's only way out. */
    readonly api: Api
  }
}

/** A failed bridge call, thrown in the renderer so stores can use try/catch. */
export class ApiError extends Error {
  readonly code: ErrorCode
  /** Typed by the contract: each key has one type whatever the code (`throttled` alone brings `retryAfterSeconds`, `dependents` the list). */
  readonly details: ErrorDetails | undefined

  constructor(shape: ApiErrorShape) {
    super(shape.message)
    this.name = 'ApiError'
    this.code = shape.code
    this.details = shape.details
  }

  /** Field messages from a validation error, keyed by field name. */
  get fieldErrors(): Record<string, string[]> {
    return this.details?.fields ?? {}
  }
}

export function api(): Api {
  return window.api
}

export async function unwrap<T>(pending: Promise<Outcome<T>>): Promise<T> {
  const outcome = await pending
  if (outcome.ok) return outcome.value
  throw new ApiError(outcome.error)
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** Whatever a call threw, as an ApiError: anything else becomes an `internal` one with its message. */
export function toApiError(error: unknown): ApiError {
  return error instanceof ApiError ? error : new ApiError({ code: 'internal', message: errorMessage(error) })
}
