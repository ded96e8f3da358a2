import type { IncomingMessage, ServerResponse } from 'node:http'
import { isIPv4 } from 'node:net'

/** Request bodies above this size are refused (workflow: 504, as the spec's "request too large"). */
export const MAX_BODY_BYTES = 1024 * 1024

export interface ReadBody {
  bytes: Buffer
  tooLarge: boolean
}

/** Reads the whole body; past the limit the rest is drained and dropped so the reply can still be sent. */
export function readBody(request: IncomingMessage, limit = MAX_BODY_BYTES): Promise<ReadBody> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let tooLarge = false
    request.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        tooLarge = true
        chunks.length = 0
      } else {
        chunks.push(chunk)
      }
    })
    request.on('end', () => resolve({ bytes: tooLarge ? Buffer.alloc(0) : Buffer.concat(chunks), tooLarge }))
    request.on('error', reject)
  })
}

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body)
  response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers })
  response.end(text)
}

export function sendEmpty(response: ServerResponse, status: number): void {
  response.writeHead(status)
  response.end()
}

export function delay(milliseconds: number): Promise<void> {
  return milliseconds > 0 ? new Promise((resolve) => setTimeout(resolve, milliseconds)) : Promise.resolve()
}

export function bearerToken(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null
  return match?.[1]
}

/** Whether a listening address reaches only this machine: 127.0.0.0/8, ::1 or localhost. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase()
  if (bare === 'localhost' || bare === '::1') return true
  const ipv4 = bare.startsWith('::ffff:') ? bare.slice('::ffff:'.length) : bare
  return isIPv4(ipv4) && ipv4.startsWith('127.')
}

/** The media type of a Content-Type header, without parameters, in lower case ('' when absent). */
export function mediaTypeOf(request: IncomingMessage): string {
  return (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
}
