import { describe, expect, it } from 'vitest'
import { createRedactor, redactSecrets, redactValue } from '../../../main/services/logs/redact'

describe('redactSecrets: whatever names itself a secret', () => {
  it('masks authorization headers and schemes', () => {
    expect(redactSecrets('Authorization: Bearer eyJhbGciOi.J9.abc-def')).toBe('Authorization: ***')
    expect(redactSecrets('sent "authorization": "Bearer sbx_tok123" to the server')).toBe('sent "authorization": "***" to the server')
    expect(redactSecrets('retrying with bearer sbx_AbC')).toBe('retrying with Bearer ***')
    expect(redactSecrets('Basic ZGVtbzpkZW1vLXBhc3N3b3Jk')).toBe('Basic ***')
  })

  it('masks JSON fields, form and query fields, and YAML-style pairs', () => {
    expect(redactSecrets('{"access_token":"sbx_1\\"2","token_type":"Bearer","expires_in":3600}')).toBe(
      '{"access_token":"***","token_type":"***","expires_in":3600}',
    )
    expect(redactSecrets('{"password": "hunter2", "username": "ops"}')).toBe('{"password": "***", "username": "ops"}')
    expect(redactSecrets('grant_type=password&username=ops&password=p%40ss&scope=x')).toBe('grant_type=password&username=ops&password=***&scope=x')
    expect(redactSecrets('GET /v1/?token=abc123&page=2')).toBe('GET /v1/?token=***&page=2')
    expect(redactSecrets('client_secret: s3cr3t, user: ops')).toBe('client_secret: ***, user: ops')
  })

  it('masks the user information of any address', () => {
    expect(redactSecrets('https://ops:hunter2@api.example.com/v1')).toBe('https://***@api.example.com/v1')
  })

  it('leaves ordinary sentences alone', () => {
    const sentence = 'The platform refused the sign-in: check the user name and password, then try again. Token renewal took 120 ms.'
    expect(redactSecrets(sentence)).toBe(sentence)
  })
})

describe('redactValue: structured data', () => {
  it('masks values under secret-named keys at any depth, and cleans strings elsewhere', () => {
    const known = createRedactor(['plain-secret-value'])
    expect(
      redactValue(
        {
          auth: { method: 'password', username: 'ops', password: 'hunter2' },
          headers: { Authorization: 'Bearer x', accept: 'application/json' },
          body: { access_token: 'abc', refreshToken: 'def', expires_in: 3600 },
          note: 'the echo said plain-secret-value',
          url: 'https://u:p@h.example/x',
          list: [{ token: 'ghi' }],
          hasSecret: true,
        },
        known,
      ),
    ).toEqual({
      auth: { method: 'password', username: 'ops', password: '***' },
      headers: { Authorization: '***', accept: 'application/json' },
      body: { access_token: '***', refreshToken: '***', expires_in: 3600 },
      note: 'the echo said ***',
      url: 'https://***@h.example/x',
      list: [{ token: '***' }],
      hasSecret: true,
    })
  })
})
