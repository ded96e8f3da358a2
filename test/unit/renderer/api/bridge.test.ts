import { describe, expect, it } from 'vitest'
import { ApiError, toApiError } from '../../../../renderer/src/api/bridge'

describe('toApiError', () => {
  it('keeps an ApiError as it is and turns anything else into an internal one with its message', () => {
    const original = new ApiError({ code: 'network', message: 'The platform is unreachable.' })
    expect(toApiError(original)).toBe(original)
    expect(toApiError(new TypeError('x is undefined'))).toMatchObject({ code: 'internal', message: 'x is undefined' })
    expect(toApiError('plain text')).toMatchObject({ code: 'internal', message: 'plain text' })
    expect(toApiError(new Error('boom'))).toBeInstanceOf(ApiError)
  })
})
