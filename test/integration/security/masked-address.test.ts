import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpClient, discard, readErrorBody } from '../../../main/services/http/client'
import { errorFromHttp } from '../../../main/services/http/errors'
import { startStubServer, type StubServer } from './support'

/**
 * A link the platform hands back (a list's `next`) may carry the request's token in its query.
 * The address goes into every error's details, so the client masks it there; it does so when
 * the address is first read rather than for every request, and these check that reading it in
 * any way (a property, a copy, JSON) still gives the masked address.
 */
const TOKEN = 'tok-3f9a1c27e54b'

let server: StubServer
beforeAll(async () => {
  server = await startStubServer((_request, response) => {
    response.writeHead(500, { 'content-type': 'application/json' })
    response.end('{"detail":"broken"}')
  })
})
afterAll(() => server.close())

describe("a request's address in its context", () => {
  it('is masked however it is read: the property, a spread copy, JSON', async () => {
    const http = createHttpClient({ retry: { maxRetries: 0 } })
    try {
      const response = await http.request({
        method: 'GET',
        read: true,
        url: `${server.url}/wf/publishers/?page=2&token=${TOKEN}`,
        headers: { authorization: `Bearer ${TOKEN}` },
      })
      await discard(response)
      const readings = [response.context.url, { ...response.context }.url, JSON.stringify(response.context)]
      for (const reading of readings) {
        expect(reading).not.toContain(TOKEN)
        expect(reading).toContain('token=***')
      }
    } finally {
      await http.close()
    }
  })

  it("is masked in the error the answer becomes, and in the error's details", async () => {
    const http = createHttpClient({ retry: { maxRetries: 0 } })
    try {
      const response = await http.request({ method: 'GET', read: true, url: `${server.url}/wf/brands/?token=${TOKEN}`, secrets: [TOKEN] })
      const error = errorFromHttp({ status: response.status, headers: response.headers, body: await readErrorBody(response), context: response.context })
      const written = JSON.stringify({ message: error.message, details: error.details })
      expect(written).not.toContain(TOKEN)
      expect(written).toContain('***')
    } finally {
      await http.close()
    }
  })
})
