import { describe, expect, it } from 'vitest'
import { apiErrorSchema, dependentsDetailsSchema, throttledDetailsSchema } from '@contract'
import { PUBLIC_DETAIL_KEYS, publicErrorShape } from '../../../main/services/error-shape'
import { AppError, toErrorShape } from '../../../main/services/errors'

/**
 * Error details are typed in the contract (issue 21 §3): one type per key, `retryAfterSeconds`
 * only on `throttled`, `dependents` only on `dependents`. What crosses the bridge is parsed by
 * these shapes, so a detail of the wrong shape never reaches the page.
 */
describe('typed error details', () => {
  it('the contract rejects a details object of the wrong shape', () => {
    const wrong = [
      { code: 'throttled', message: 'Wait.', details: { retryAfterSeconds: 'soon' } },
      { code: 'validation', message: 'Fix it.', details: { fields: { name: 'required' } } },
      { code: 'validation', message: 'Fix it.', details: { issues: [{ path: 3, message: 'bad' }] } },
      { code: 'dependents', message: 'In use.', details: { dependents: [{ kind: 'ad_units', name: 'Top' }] } },
      { code: 'server', message: 'Down.', details: { httpStatus: '503' } },
      { code: 'network', message: 'Offline.', details: 'ECONNREFUSED' },
    ]
    for (const shape of wrong) expect(apiErrorSchema.safeParse(shape).success, JSON.stringify(shape)).toBe(false)
  })

  it('the contract keeps each code to its own keys and drops unknown ones', () => {
    const server = apiErrorSchema.parse({
      code: 'server',
      message: 'Down.',
      details: { httpStatus: 503, retryAfterSeconds: 5, dependents: [], body: '<html>', path: '/home/me/x.csv' },
    })
    expect(server.details).toEqual({ httpStatus: 503 })
    const throttled = apiErrorSchema.parse({ code: 'throttled', message: 'Wait.', details: { retryAfterSeconds: null, httpStatus: 429 } })
    expect(throttled.details).toEqual({ retryAfterSeconds: null, httpStatus: 429 })
    const issues = apiErrorSchema.parse({ code: 'bad_input', message: 'Bad.', details: { issues: ['a line', { path: 'name', message: 'required' }] } })
    expect(issues.details?.issues).toEqual(['a line', { path: 'name', message: 'required' }])
  })

  it('main sends the typed shape of the error code', () => {
    const throttled = toErrorShape(new AppError('throttled', 'Wait 5 seconds.', { retryAfterSeconds: 5, httpStatus: 429, body: { detail: 'slow down' } }))
    expect(throttled).toEqual({ code: 'throttled', message: 'Wait 5 seconds.', details: { retryAfterSeconds: 5, httpStatus: 429 } })
    const dependents = toErrorShape(new AppError('dependents', 'In use.', { dependents: [{ kind: 'ad_units', id: 4, name: 'Top' }], errorCode: null }))
    expect(dependents).toEqual({ code: 'dependents', message: 'In use.', details: { dependents: [{ kind: 'ad_units', id: 4, name: 'Top' }] } })
    // A key of another code's shape does not cross with this one.
    expect(publicErrorShape({ code: 'server', message: 'Down.', details: { retryAfterSeconds: 5 } })).toEqual({ code: 'server', message: 'Down.', details: {} })
  })

  it('the keys main lets through are the keys the contract types', () => {
    const typed = new Set([...Object.keys(throttledDetailsSchema.shape), ...Object.keys(dependentsDetailsSchema.shape)])
    expect([...PUBLIC_DETAIL_KEYS].sort()).toEqual([...typed].sort())
  })
})
