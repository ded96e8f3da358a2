import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface TinyRequest {
  method: string
  url: string
  body: string
  authorization: string | null
  accept: string | null
}

export type TinyHandler = (request: IncomingMessage, response: ServerResponse, body: string) => void

/**
 * A node:http server for answers the sandbox never gives (HTML 502 pages, truncated JSON, YAML
 * on the workflow side, wrong shapes). It answers the token endpoint itself so clients can sign in.
 */
export async function startTinyServer(handler: TinyHandler): Promise<{ url: string; requests: TinyRequest[]; close(): Promise<void> }> {
  const requests: TinyRequest[] = []
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      requests.push({
        method: request.method ?? '',
        url: request.url ?? '',
        body,
        authorization: request.headers.authorization ?? null,
        accept: request.headers.accept ?? null,
      })
      if (request.url === '/auth/oauth2/token/') {
        response.writeHead(200, { 'content-type': 'application/json' })
        const scope = new URLSearchParams(body).get('scope') ?? ''
        response.end(
          JSON.stringify({ access_token: `tiny-${scope.replace('service_id=', '')}-${requests.length}`, expires_in: 3600, token_type: 'Bearer', scope }),
        )
        return
      }
      handler(request, response, body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
