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

/** A body read as UTF-8 text up to a limit; `cut` when the stream held more than the limit. */
export interface LimitedText {
  text: string
  cut: boolean
}

/** Reads a body as UTF-8 text, keeping at most `limit` bytes and dropping the rest of the stream. */
export async function readLimitedText(stream: Readable, limit: number): Promise<LimitedText> {
  const chunks: Buffer[] = []
  let size = 0
  let cut = false
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const room = limit - size
    chunks.push(room >= chunk.length ? chunk : chunk.subarray(0, room))
    size += Math.min(room, chunk.length)
    if (room < chunk.length) cut = true
    if (size >= limit) {
      stream.destroy()
      break
    }
  }
  return { text: Buffer.concat(chunks).toString('utf8'), cut }
}

export function contentTypeOf(headers: Record<string, string | string[] | undefined>): string | null {
  const value = headers['content-type']
  const first = Array.isArray(value) ? value[0] : value
  return first === undefined ? null : first.toLowerCase()
}
