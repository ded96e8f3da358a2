import { promises as fs } from 'node:fs'
import type { Readable, Writable } from 'node:stream'
import { withoutControlCharacters } from '../../common/control-characters'
import { UsageError } from './usage'

export interface CliIo {
  stdin: Readable
  stdout: Writable
  stderr: Writable
}

/** Writes and waits for the stream to take more, so a slow reader (a pipe) bounds our memory. */
export function writeText(stream: Writable, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const ok = stream.write(text, (error) => {
      if (error !== null && error !== undefined) reject(error)
    })
    if (ok) resolve()
    else stream.once('drain', resolve)
  })
}

/**
 * Sentences and text a person reads (errors, warnings, tables): the one way the command line
 * prints them, without control characters, so a name holding ESC[2J or U+202E cannot steer the
 * terminal. The progress line's own escapes (progress.ts) and JSON (escaped by JSON) go around it.
 */
export function writeSentence(stream: Writable, text: string): Promise<void> {
  return writeText(stream, withoutControlCharacters(text))
}

export function writeJson(stream: Writable, value: unknown): Promise<void> {
  return writeText(stream, `${JSON.stringify(value, null, 2)}\n`)
}

async function readStream(stream: Readable): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of stream as AsyncIterable<Buffer | string>) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)
  return Buffer.concat(chunks).toString('utf8')
}

/** The JSON object given by `--flag FILE` or `--flag -` (standard input). Any problem is a usage error. */
export async function readJsonObject(source: string, flag: string, stdin: Readable): Promise<Record<string, unknown>> {
  let text: string
  try {
    text = source === '-' ? await readStream(stdin) : await fs.readFile(source, 'utf8')
  } catch (error) {
    const code = (error as { code?: unknown }).code
    throw new UsageError(`Cannot read ${flag} ${source}${typeof code === 'string' ? ` (${code})` : ''}.`)
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new UsageError(`${flag} ${source === '-' ? '(standard input)' : source} is not valid JSON: ${(error as Error).message}.`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError(`${flag} ${source === '-' ? '(standard input)' : source} must hold a JSON object.`)
  }
  return value as Record<string, unknown>
}
