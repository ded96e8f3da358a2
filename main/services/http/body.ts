import type { Readable } from 'node:stream'

/** A response body as far as we could read it: JSON when it parsed, text when not, or nothing. */
export type ResponseBody = { kind: 'json'; value: unknown } | { kind: 'text'; text: string; contentType: string | null } | { kind: 'empty' }

/** Error bodies are for a sentence and the details view; a runaway HTML page must not fill memory. */
export const ERROR_BODY_LIMIT = 64 * 1024

export function parseBody(text: string, contentType: string | null): ResponseBody {
  if (text.trim() === '') return { kind: 'empty' }
  try {
    return { kind: 'json', value: JSON.parse(text) as unknown }
  } catch {
    return { kind: 'text', text, contentType }
  }
}

/** Reads a body as UTF-8 text, keeping at most `limit` bytes and dropping the rest of the stream. */
export async function readLimitedText(stream: Readable, limit: number): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const room = limit - size
    chunks.push(room >= chunk.length ? chunk : chunk.subarray(0, room))
    size += Math.min(room, chunk.length)
    if (size >= limit) {
      stream.destroy()
      break
    }
  }
  return Buffer.concat(chunks).toString('utf8')
}

export function contentTypeOf(headers: Record<string, string | string[] | undefined>): string | null {
  const value = headers['content-type']
  const first = Array.isArray(value) ? value[0] : value
  return first === undefined ? null : first.toLowerCase()
}
