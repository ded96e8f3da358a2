import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http'
import { isDeepStrictEqual } from 'node:util'

/**
 * A reporting server that answers the export call at the speed of memory, for the exports
 * bench's fast-server case: the demo backend takes seconds to produce its file, which hides
 * how well a client overlaps reading the network and writing the disk.
 *
 * Started as a child process (its CPU is its own, as a real server's would be):
 *   tsx test/bench/fast-export-server.ts <demo report_url> <request.json> <token>
 * It first fetches the export of `request.json` from the demo once (the very bytes and headers
 * the demo answers with), keeps them in memory, then listens on 127.0.0.1 (never another
 * interface) and prints one JSON line: { "report_url": … }. Its export call answers the same
 * request (token aside) with those bytes and headers; any other request body is a
 * `bad_request`, as the demo says it. Every other reporting call (info…) is passed on to the demo.
 *
 * Bounded, and it stops by itself: at most MAX_EXPORTS exports, at most LIFETIME_MS alive, and
 * it exits as soon as its standard input closes (the bench ended, or died).
 */

const MAX_EXPORTS = 64
const LIFETIME_MS = 15 * 60 * 1000
const MAX_REQUEST_BYTES = 1024 * 1024
/** The slice written at once: big enough that the socket, not the loop, sets the pace. */
const SLICE_BYTES = 4 * 1024 * 1024

const [demoReportUrl, requestFile, token] = process.argv.slice(2)
if (demoReportUrl === undefined || requestFile === undefined || token === undefined) {
  process.stderr.write('usage: fast-export-server.ts <demo report_url> <request.json> <token>\n')
  process.exit(2)
}
const { readFile } = await import('node:fs/promises')
const expected = JSON.parse(await readFile(requestFile, 'utf8')) as Record<string, unknown>

/** The demo's answer to the export, whole, with the headers a client reads. */
async function prepare(): Promise<{ bytes: Buffer; headers: Record<string, string> }> {
  const answer = await fetch(`${demoReportUrl}/API/v2/export`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...expected, token }),
  })
  if (answer.status !== 200) throw new Error(`the demo answered the export with HTTP ${answer.status}`)
  const headers: Record<string, string> = {}
  for (const name of ['content-type', 'content-disposition', 'x-export-rows', 'x-matching-rows']) {
    const value = answer.headers.get(name)
    if (value !== null) headers[name] = value
  }
  return { bytes: Buffer.from(await answer.arrayBuffer()), headers }
}

const prepared = await prepare()
let exportsServed = 0

function readBody(request: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    request.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_REQUEST_BYTES) {
        resolve(null)
        request.destroy()
      } else chunks.push(chunk)
    })
    request.once('end', () => resolve(Buffer.concat(chunks)))
    request.once('error', reject)
  })
}

function refuse(response: ServerResponse, reason: string): void {
  response.writeHead(400, { 'content-type': 'application/json' })
  response.end(JSON.stringify({ status: 'bad_request', reason }))
}

function drained(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      response.off('drain', done).off('close', done)
      resolve()
    }
    response.on('drain', done).on('close', done)
  })
}

/** Writes the prepared bytes in big slices, waiting for the socket when it is full. */
async function sendPrepared(response: ServerResponse): Promise<void> {
  response.writeHead(200, { ...prepared.headers, 'content-length': String(prepared.bytes.length) })
  for (let offset = 0; offset < prepared.bytes.length && !response.destroyed; offset += SLICE_BYTES) {
    const more = response.write(prepared.bytes.subarray(offset, offset + SLICE_BYTES))
    if (!more) await drained(response)
  }
  response.end()
}

async function answerExport(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const body = await readBody(request)
  if (body === null) return refuse(response, 'The request body is larger than 1 MiB')
  let parsed: unknown
  try {
    parsed = JSON.parse(body.toString('utf8'))
  } catch {
    return refuse(response, 'The request body is not valid JSON')
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return refuse(response, 'The request body must be a JSON object')
  const { token: sent, ...rest } = parsed as Record<string, unknown>
  if (typeof sent !== 'string' || sent === '') {
    response.writeHead(401, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ status: 'access_error', reason: 'No token: send it in the body field token' }))
    return
  }
  if (!isDeepStrictEqual(rest, expected)) return refuse(response, 'This server answers only the export the bench prepared')
  exportsServed += 1
  if (exportsServed >= MAX_EXPORTS) response.once('close', () => process.exit(0))
  await sendPrepared(response)
}

/** Any other reporting call goes to the demo as it came. */
function passOn(request: IncomingMessage, response: ServerResponse): void {
  const target = new URL(`${demoReportUrl}${request.url ?? '/'}`)
  const forwarded = httpRequest(target, { method: request.method, headers: { ...request.headers, host: target.host } }, (answer) => {
    response.writeHead(answer.statusCode ?? 502, answer.headers)
    answer.pipe(response)
  })
  forwarded.once('error', () => response.destroy())
  request.pipe(forwarded)
}

const server = createServer((request, response) => {
  if (request.method === 'POST' && request.url === '/API/v2/export') void answerExport(request, response).catch(() => response.destroy())
  else passOn(request, response)
})
server.listen(0, '127.0.0.1', () => {
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('no port')
  process.stdout.write(`${JSON.stringify({ report_url: `http://127.0.0.1:${address.port}`, bytes: prepared.bytes.length })}\n`)
})
setTimeout(() => process.exit(0), LIFETIME_MS).unref()
process.stdin.resume()
process.stdin.once('end', () => process.exit(0))
process.stdin.once('close', () => process.exit(0))
