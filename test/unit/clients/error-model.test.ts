import { describe, expect, it } from 'vitest'
import { errorCodes } from '@contract'
import type { ResponseBody } from '../../../main/services/http/body'
import { errorFromHttp, errorFromTransport, retryAfterSeconds, unreadableBody } from '../../../main/services/http/errors'
import { looksLikeYaml, reasonOf } from '../../../main/services/http/reasons'
import { errorFromReportingStatus, reportAccessDenied } from '../../../main/services/reporting/statuses'

const context = { method: 'GET', url: 'https://platform.example/api/publishers/' }
const json = (value: unknown): ResponseBody => ({ kind: 'json', value })
const text = (body: string, contentType: string | null = 'text/plain'): ResponseBody => ({ kind: 'text', text: body, contentType })
const http = (status: number, body: ResponseBody = { kind: 'empty' }, headers: Record<string, string> = {}) => errorFromHttp({ status, headers, body, context })

describe('workflow HTTP codes', () => {
  it.each([
    [400, 'validation'],
    [401, 'auth'],
    [403, 'forbidden'],
    [404, 'not_found'],
    [405, 'method_not_allowed'],
    [406, 'dependents'],
    [409, 'conflict'],
    [429, 'throttled'],
    [500, 'server'],
    [502, 'server'],
    [503, 'server'],
    [504, 'timeout'],
    [418, 'bad_response'],
  ] as const)('%i → %s, with the HTTP code kept', (status, code) => {
    const error = http(status, json({ detail: 'Because.' }))
    expect(error.code).toBe(code)
    expect(errorCodes).toContain(error.code)
    expect(error.details?.httpStatus).toBe(status)
    expect(error.message).toMatch(/[.!]$/)
  })

  it('a field map becomes details.fields and a sentence naming the fields', () => {
    const error = http(400, json({ name: ['This field is required.'], url: ['Enter a valid URL.', 'Too long.'] }))
    expect(error.details?.fields).toEqual({ name: ['This field is required.'], url: ['Enter a valid URL.', 'Too long.'] })
    expect(error.message).toBe('The platform rejected some fields: name: This field is required; url: Enter a valid URL, Too long. Correct them and try again.')
  })

  it('{detail} is the reason', () => {
    const error = http(400, json({ detail: 'Unsupported query parameter: x.' }))
    expect(error.message).toBe('The platform rejected the request: Unsupported query parameter: x.')
    expect(error.details?.reason).toBe('Unsupported query parameter: x.')
    expect(error.details?.fields).toBeUndefined()
  })

  it('401 is "Sign-in rejected: <reason>"', () => {
    expect(http(401, json({ detail: 'Invalid or expired token.' })).message).toMatch(/^Sign-in rejected: Invalid or expired token\. /)
    expect(http(401).message).toMatch(/^Sign-in rejected: the platform did not accept the credentials\. /)
  })

  it('429 carries the wait, in seconds or from a date', () => {
    expect(http(429, { kind: 'empty' }, { 'retry-after': '7' }).details?.retryAfterSeconds).toBe(7)
    expect(http(429).details?.retryAfterSeconds).toBeNull()
    expect(http(429, { kind: 'empty' }, { 'retry-after': '7' }).message).toMatch(/Wait 7 seconds/)
  })

  it('an HTML error page never ends up in the sentence', () => {
    const error = http(502, text('<html><body><h1>Bad Gateway</h1></body></html>', 'text/html'))
    expect(error.message).not.toContain('<')
    expect(error.details?.body).toContain('Bad Gateway')
  })
})

describe('reporting statuses', () => {
  it.each([
    ['bad_request', 'validation'],
    ['access_error', 'auth'],
    ['timeout', 'timeout'],
    ['internal_error', 'server'],
    ['something_new', 'server'],
  ] as const)('%s → %s whatever the HTTP code', (status, code) => {
    for (const httpStatus of [200, 400, 403, 500]) {
      const error = errorFromReportingStatus(status, 'The reason', httpStatus, context)
      expect(error.code).toBe(code)
      expect(error.details).toMatchObject({ apiStatus: status, httpStatus, reason: 'The reason' })
      expect(error.message).toContain('The reason')
    }
  })

  it('access_error for a fresh token is a missing permission', () => {
    const error = reportAccessDenied(errorFromReportingStatus('access_error', "No access to project 'x'", 403, context))
    expect(error.code).toBe('forbidden')
    expect(error.message).toContain("No access to project 'x'")
  })
})

describe('reasons from any body', () => {
  it.each([
    [json({ detail: 'd' }), 'd'],
    [json({ reason: 'r' }), 'r'],
    [json({ error: 'invalid_grant', error_description: 'Bad password.' }), 'Bad password.'],
    [json({ error: 'invalid_grant' }), 'invalid_grant'],
    [json('just a string'), 'just a string'],
    [json({ name: ['Required.'] }), 'name: Required'],
    [json([1, 2]), null],
    [text('Plain words'), 'Plain words'],
    [text('<html>no</html>', 'text/html'), null],
    [{ kind: 'empty' } as ResponseBody, null],
  ])('%j → %j', (body, reason) => {
    expect(reasonOf(body)).toBe(reason)
  })
})

describe('unreadable bodies', () => {
  it('says what the body was', () => {
    expect(unreadableBody(text('a: 1\nb: 2\n', 'application/x-yaml'), 200, context).message).toMatch(/YAML/)
    expect(unreadableBody(text('<!DOCTYPE html><html></html>', null), 200, context).message).toMatch(/HTML/)
    expect(unreadableBody(text('{"a": ', 'application/json'), 200, context).message).toMatch(/truncated JSON/)
    expect(unreadableBody({ kind: 'empty' }, 200, context).message).toMatch(/empty/)
  })

  it('tells YAML from plain text', () => {
    expect(looksLikeYaml('status: success\nrows: []\n', null)).toBe(true)
    expect(looksLikeYaml('---\nstatus: success\n', 'text/plain')).toBe(true)
    expect(looksLikeYaml('Error: something broke', 'text/plain')).toBe(false)
    expect(looksLikeYaml('{"a": 1', 'application/json')).toBe(false)
  })
})

describe('transport failures', () => {
  const coded = (code: string) => Object.assign(new Error(code), { code })

  it.each([
    ['ECONNREFUSED', 'network'],
    ['ENOTFOUND', 'network'],
    ['EAI_AGAIN', 'network'],
    ['ECONNRESET', 'network'],
    ['UND_ERR_SOCKET', 'network'],
    ['UND_ERR_CONNECT_TIMEOUT', 'network'],
    ['UND_ERR_HEADERS_TIMEOUT', 'timeout'],
    ['UND_ERR_BODY_TIMEOUT', 'timeout'],
    ['UND_ERR_ABORTED', 'cancelled'],
  ] as const)('%s → %s', (code, expected) => {
    const error = errorFromTransport(coded(code), context)
    expect(error.code).toBe(expected)
  })

  it('"offline or unreachable" names the host, and looks inside AggregateError (happy eyeballs)', () => {
    const error = errorFromTransport(new AggregateError([coded('ENETUNREACH'), coded('ENETUNREACH')], 'connect failed'), context)
    expect(error.code).toBe('network')
    expect(error.message).toMatch(/offline or unreachable \(platform\.example\)/)
    expect(error.details?.errorCode).toBe('ENETUNREACH')
  })

  it('a refusal says nothing answers at the host and port, the default port spelled out', () => {
    const error = errorFromTransport(new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')], 'connect failed'), context)
    expect(error.code).toBe('network')
    expect(error.message).toMatch(/^Nothing answers at platform\.example:443\. /)
    expect(errorFromTransport(coded('ECONNREFUSED'), { method: 'GET', url: 'http://127.0.0.1:9/wf/' }).message).toMatch(/^Nothing answers at 127\.0\.0\.1:9\. /)
  })

  it('an aborted signal wins over whatever error the abort caused', () => {
    expect(errorFromTransport(coded('UND_ERR_SOCKET'), context, AbortSignal.abort()).code).toBe('cancelled')
  })
})

describe('Retry-After', () => {
  const now = () => Date.parse('2030-01-01T00:00:00Z')
  it.each([
    ['5', 5],
    ['0', 0],
    ['1.2', 2],
    ['Tue, 01 Jan 2030 00:00:30 GMT', 30],
    ['Mon, 31 Dec 2029 00:00:00 GMT', 0],
    ['soon', null],
    ['', null],
  ])('%j → %j', (header, seconds) => {
    expect(retryAfterSeconds(header, now)).toBe(seconds)
  })
})
