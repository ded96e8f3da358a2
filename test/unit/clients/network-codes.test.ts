import { describe, expect, it } from 'vitest'
import { AppError } from '../../../main/services/errors'
import { errorFromTransport } from '../../../main/services/http/errors'
import { networkErrorCodes } from '../../../main/services/http/network-codes'
import { defaultRetryPolicy } from '../../../main/services/http/retry'
import { uncertainWrite } from '../../../main/services/workflow/uncertain-write'

const context = { method: 'POST', url: 'https://platform.example/api/publishers/' }
const coded = (code: string): Error => Object.assign(new Error(code), { code })
const codes = (failure: string): string[] =>
  Object.entries(networkErrorCodes)
    .filter(([, kind]) => kind === failure)
    .map(([code]) => code)

/** The error mapping, the retry policy and the uncertain-write check read one list; these pin what each kind means to each. */
describe('one list of network error codes', () => {
  it.each(codes('not-sent'))('%s: a read is repeated, a failed write is known not to have happened', (code) => {
    expect(defaultRetryPolicy.errorCodes).toContain(code)
    const error = errorFromTransport(coded(code), context)
    expect(error.code).toBe('network')
    expect(uncertainWrite(error)).toBe(error)
  })

  it.each(codes('refused'))('%s: not repeated, and a failed write is known not to have happened', (code) => {
    expect(defaultRetryPolicy.errorCodes).not.toContain(code)
    const error = errorFromTransport(coded(code), context)
    expect(error.code).toBe('network')
    expect(uncertainWrite(error)).toBe(error)
  })

  it.each(codes('lost'))('%s: a read is repeated, a failed write may have happened', (code) => {
    expect(defaultRetryPolicy.errorCodes).toContain(code)
    const error = uncertainWrite(errorFromTransport(coded(code), context))
    expect(error).toBeInstanceOf(AppError)
    expect((error as AppError).details?.outcome).toBe('unknown')
  })

  it.each([...codes('closed'), ...codes('slow')])('%s: not repeated, and a failed write may have happened', (code) => {
    expect(defaultRetryPolicy.errorCodes).not.toContain(code)
    expect((uncertainWrite(errorFromTransport(coded(code), context)) as AppError).details?.outcome).toBe('unknown')
  })

  it('maps the slow kinds to a timeout and every other kind to network', () => {
    for (const code of codes('slow')) expect(errorFromTransport(coded(code), context).code).toBe('timeout')
    for (const code of [...codes('refused'), ...codes('not-sent'), ...codes('lost'), ...codes('closed')])
      expect(errorFromTransport(coded(code), context).code).toBe('network')
  })
})
