import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { csvLine, tsvLine } from '../../../main/sandbox/reporting/export-csv'
import type { Cell } from '../../../main/sandbox/reporting/export'

/**
 * The sandbox's reporting API behind a proxy that can misbehave the way a real platform or
 * network does for an export: cap it with an Others row (written with the sandbox's own line
 * writers, as a 1,000,000-row export would end), stall mid-stream, or answer JSON instead of a file.
 */
export type ExportMode =
  | { kind: 'pass' }
  | { kind: 'cap'; rows: number }
  /** Sends the headers and the first chunk of the file, then nothing until the client goes away. */
  | { kind: 'stall' }
  | { kind: 'json'; body: unknown }

export interface PlatformProxy {
  reportUrl: string
  mode: ExportMode
  /** Stalled answers whose client has gone away (the download was closed, not left hanging). */
  closedStalls: number
  /** Export requests received, as parsed bodies. */
  exports: Array<Record<string, unknown>>
  close(): Promise<void>
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/** The last rows past `keep` summed into one `Others` row, as the platform does past its cap. */
function capped(text: string, format: 'csv' | 'tsv', keep: number): string {
  const separator = format === 'csv' ? ',' : '\t'
  const lines = text.split(format === 'csv' ? '\r\n' : '\n').filter((line) => line !== '')
  const [header = '', ...rows] = lines
  const columns = header.split(separator)
  const cellsOf = (line: string): string[] => line.split(separator)
  const firstData = columns.findIndex((_name, index) => rows.every((row) => cellsOf(row)[index] !== undefined && Number.isFinite(Number(cellsOf(row)[index]))))
  const others: Cell[] = columns.map((_name, index) => {
    if (index === 0) return 'Others'
    if (index < firstData) return null
    return rows.slice(keep).reduce((sum, row) => sum + Number(cellsOf(row)[index]), 0)
  })
  const write = format === 'csv' ? csvLine : tsvLine
  const end = format === 'csv' ? '\r\n' : '\n'
  return [header, ...rows.slice(0, keep)].map((line) => `${line}${end}`).join('') + write(others)
}

export async function startPlatformProxy(reportUrl: string): Promise<PlatformProxy> {
  const upstream = new URL(reportUrl)
  const proxy: PlatformProxy = { reportUrl: '', mode: { kind: 'pass' }, closedStalls: 0, exports: [], close: async () => undefined }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request)
    const path = (request.url ?? '/').replace(/^\/report/, upstream.pathname.replace(/\/$/, ''))
    const forwarded = await fetch(`${upstream.origin}${path}`, {
      method: request.method ?? 'POST',
      headers: {
        'content-type': request.headers['content-type'] ?? 'application/json',
        accept: request.headers.accept ?? 'application/json',
        authorization: request.headers.authorization ?? '',
      },
      // A plain Uint8Array: a Buffer is no BodyInit where the DOM types are in scope (the e2e specs use this proxy too).
      ...(body.length > 0 ? { body: new Uint8Array(body) } : {}),
    })
    const isExport = path.endsWith('/API/v2/export')
    const mode = proxy.mode
    if (!isExport || mode.kind === 'pass') {
      if (isExport) proxy.exports.push(JSON.parse(body.toString('utf8')) as Record<string, unknown>)
      response.writeHead(forwarded.status, { 'content-type': forwarded.headers.get('content-type') ?? 'application/octet-stream' })
      // Streamed through, so a download the sandbox cuts (drop_export_after_bytes) is cut here too.
      try {
        for await (const chunk of forwarded.body ?? []) {
          if (!response.write(chunk)) await new Promise((resolve) => response.once('drain', resolve))
        }
        response.end()
      } catch {
        response.destroy()
      }
      return
    }
    proxy.exports.push(JSON.parse(body.toString('utf8')) as Record<string, unknown>)
    const file = Buffer.from(await forwarded.arrayBuffer())
    const contentType = forwarded.headers.get('content-type') ?? 'application/octet-stream'
    if (mode.kind === 'json') {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify(mode.body))
    } else if (mode.kind === 'cap') {
      const format = contentType.includes('tab-separated') ? 'tsv' : 'csv'
      response.writeHead(200, { 'content-type': contentType })
      response.end(capped(file.toString('utf8'), format, mode.rows))
    } else {
      response.writeHead(200, { 'content-type': contentType })
      response.write(file.subarray(0, Math.min(4096, file.length)))
      response.once('close', () => (proxy.closedStalls += 1))
    }
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' })
      response.end(String(error))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  proxy.reportUrl = `http://127.0.0.1:${port}/report`
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  return proxy
}
