import { describe, expect, it } from 'vitest'
import { isLoopbackHost } from '../../../main/sandbox/http'

describe('isLoopbackHost', () => {
  it('knows the loopback addresses and names', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '127.255.255.254', 'localhost', 'LOCALHOST', '::1', '[::1]', '::ffff:127.0.0.1']) {
      expect(isLoopbackHost(host), host).toBe(true)
    }
  })

  it('treats every other address as reachable from other machines', () => {
    for (const host of [
      '0.0.0.0',
      '::',
      '192.168.1.10',
      '10.0.0.1',
      '128.0.0.1',
      '::ffff:10.0.0.1',
      'example.com',
      'localhost.example',
      '127.0.0.1.example',
      '',
    ]) {
      expect(isLoopbackHost(host), host).toBe(false)
    }
  })
})
