import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface RecordedRequest {
  method: string
  url: string
  headers: IncomingMessage['headers']
  body: string
}

export type StubHandler = (request: IncomingMessage, response: ServerResponse, body: string) => void

export interface StubServer {
  url: string
  requests: RecordedRequest[]
  /** Everything the server was sent, headers and bodies, as one text to search for a secret. */
  received(): string
  close(): Promise<void>
}

/** A server on 127.0.0.1 that records every request in full before `handler` answers it. */
export async function startStubServer(handler: StubHandler): Promise<StubServer> {
  const requests: RecordedRequest[] = []
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body })
      handler(request, response, body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    received: () => requests.map((request) => `${request.method} ${request.url}\n${JSON.stringify(request.headers)}\n${request.body}`).join('\n'),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/**
 * What a platform that works answers: a token for any password grant, one empty page of
 * publishers, and a reporting `info` for any report.
 */
export const platformAnswers: StubHandler = (request, response) => {
  const url = request.url ?? ''
  response.writeHead(200, { 'content-type': 'application/json' })
  if (url.endsWith('/oauth2/token/')) response.end(JSON.stringify({ access_token: 'issued-token', expires_in: 3600, token_type: 'Bearer' }))
  else if (url.includes('/API/v2/')) response.end(JSON.stringify({ status: 'success', data_fields: [], key_fields: [] }))
  else response.end(JSON.stringify({ count: 0, next: null, previous: null, results: [] }))
}
