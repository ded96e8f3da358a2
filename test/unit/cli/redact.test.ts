import { describe, expect, it } from 'vitest'
import { createRedactor } from '../../../main/cli/redact'

describe("the command line's redactor", () => {
  it('hides known secrets as given, trimmed and URL-encoded, longest first', () => {
    const redactor = createRedactor(['p@ss word', undefined, ''])
    redactor.add('  tok-123  ')
    redactor.add('tok-123-extended')
    expect(redactor.redact('sent p@ss word, p%40ss%20word and tok-123 then tok-123-extended')).toBe('sent ***, *** and *** then ***')
  })

  it('hides the user information of any address', () => {
    const redactor = createRedactor()
    expect(redactor.redact('fetch https://ops:hunter2@api.example.com/v1 and HTTP://x@y.example failed')).toBe(
      'fetch https://***@api.example.com/v1 and HTTP://***@y.example failed',
    )
    expect(redactor.redact('mail ops@example.com at https://api.example.com/a@b')).toBe('mail ops@example.com at https://api.example.com/a@b')
  })
})
