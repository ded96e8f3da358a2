/**
 * The web host: serves the built renderer to a browser with window.api wired to the real
 * main-process handlers (same services, same dispatch, same contract) over HTTP. This is how
 * the app is looked at and tested where Electron cannot run. Loopback only; every call must
 * carry the per-run token, so another page in the browser cannot drive it.
 */
import http from 'node:http'
import { promises as fs } from 'node:fs'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import { build } from 'vite'
import { eventChannel } from '@contract'
import { CONTENT_SECURITY_POLICY } from '../../electron/app-protocol'
import { dispatch } from '../../handlers/dispatch'
import { createRuntime, type LoadSandbox } from '../../runtime'
import { createFolderDialogs } from '../../services/files/folder-dialogs'
import type { Services } from '../../services'
import type { HttpClientOptions } from '../../services/http/client'
import type { Keychain } from '../../services/secrets/keychain'
import { loadKeytar } from '../../services/secrets/keychain'

/**
 * How the host repeats failed reads. `fast` is for end-to-end tests, which take backends away
 * on purpose and should not wait out the app's backoff (up to 7.5 s before "offline") each
 * time. A server's Retry-After is handled exactly as in the app: the jitter added to it is
 * min(baseDelayMs, 250), so baseDelayMs stays at 250, and a rate-limit test sees the app's
 * real pacing.
 */
export const retryProfiles = {
  production: {},
  fast: { retry: { baseDelayMs: 250, maxDelayMs: 500 } },
} as const satisfies Record<string, HttpClientOptions>
export type RetryProfile = keyof typeof retryProfiles

export function isRetryProfile(value: string): value is RetryProfile {
  return Object.prototype.hasOwnProperty.call(retryProfiles, value)
}

export interface WebHostOptions {
  port: number
  host?: string
  userDataDir: string
  rendererDir: string
  keychainServiceName: string
  openKeychain?: () => Promise<Keychain>
  /** Default: the demo backend imported when the demo first opens, as in the app. */
  loadSandbox?: LoadSandbox
  /** Default `production`: the app's own retry policy. */
  retryProfile?: RetryProfile
}

export interface WebHost {
  url: string
  services: Services
  close(): Promise<void>
}

const MAX_BODY_BYTES = 8 * 1024 * 1024
const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
}

let bridgeBundle: Promise<string> | undefined
/** Bundles web-bridge.ts (and through it preload/bridge.ts and the contract) once per process. */
function bundleBridge(): Promise<string> {
  bridgeBundle ??= build({
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify: false,
      target: 'chrome130',
      lib: { entry: path.join(import.meta.dirname, 'web-bridge.ts'), formats: ['iife'], name: 'AdopsWebBridge', fileName: () => 'bridge.js' },
    },
  }).then((output) => {
    const results = Array.isArray(output) ? output : [output]
    for (const result of results) {
      if ('output' in result) {
        const chunk = result.output.find((item) => item.type === 'chunk')
        if (chunk && chunk.type === 'chunk') return chunk.code
      }
    }
    throw new Error('The web bridge did not build')
  })
  return bridgeBundle
}

async function readBody(request: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request) {
    size += (chunk as Buffer).length
    if (size > MAX_BODY_BYTES) throw new Error('Request body too large')
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks).toString('utf8')
}

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const indexPath = path.join(options.rendererDir, 'index.html')
  await fs.access(indexPath).catch(() => {
    throw new Error(`No built renderer at ${options.rendererDir}. Run "npm run build" first.`)
  })
  const token = randomBytes(24).toString('hex')
  const streams = new Set<http.ServerResponse>()
  const runtime = await createRuntime({
    userDataDir: options.userDataDir,
    openKeychain: options.openKeychain ?? loadKeytar,
    keychainServiceName: options.keychainServiceName,
    environment: { version: '0.1.0-web', platform: `${process.platform} (web preview)` },
    loadSandbox: options.loadSandbox ?? (() => import('../../sandbox')),
    // No OS dialog in a browser: the page asks for a path instead.
    saveDialog: null,
    // Preset files: imports are read from <user data>/imports, exports written to <user data>/exports.
    fileDialogs: createFolderDialogs(options.userDataDir),
    sendEvent: (event, payload) => {
      const line = `data: ${JSON.stringify({ channel: eventChannel(event), payload })}\n\n`
      for (const stream of streams) stream.write(line)
    },
    http: retryProfiles[options.retryProfile ?? 'production'],
    // build/licenses.mjs writes it beside out/renderer; logs go to <user data>/logs, the theme follows the browser.
    licensesFile: path.join(options.rendererDir, '..', 'licenses.json'),
  })
  const bridge = `window.__ADOPS_HOST__ = ${JSON.stringify({ token })};\n${await bundleBridge()}`

  const server = http.createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' })
      response.end(String(error))
    })
  })

  async function handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://host')
    if (url.pathname.startsWith('/__host/invoke/') && request.method === 'POST') {
      if (request.headers['x-adops-host-token'] !== token) {
        response.writeHead(403, { 'content-type': 'application/json' }).end('{"error":"forbidden"}')
        return
      }
      const channel = decodeURIComponent(url.pathname.slice('/__host/invoke/'.length))
      let input: unknown
      try {
        input = JSON.parse(await readBody(request))
      } catch {
        input = Symbol('unparseable')
      }
      const outcome = await dispatch(runtime.handlers, channel, input)
      response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(outcome))
      return
    }
    if (url.pathname === '/__host/events') {
      if (url.searchParams.get('token') !== token) {
        response.writeHead(403).end()
        return
      }
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' })
      response.write(': connected\n\n')
      streams.add(response)
      request.on('close', () => streams.delete(response))
      return
    }
    if (url.pathname === '/__host/bridge.js') {
      response.writeHead(200, { 'content-type': contentTypes['.js'] as string, 'cache-control': 'no-store' }).end(bridge)
      return
    }
    await serveStatic(url.pathname, response)
  }

  async function serveStatic(pathname: string, response: http.ServerResponse): Promise<void> {
    const relative = decodeURIComponent(pathname === '/' ? '/index.html' : pathname)
    const root = path.resolve(options.rendererDir)
    const file = path.resolve(root, `.${relative}`)
    if (!file.startsWith(root + path.sep)) {
      response.writeHead(404).end()
      return
    }
    let body: Buffer
    try {
      body = await fs.readFile(file)
    } catch {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found')
      return
    }
    const headers = {
      'content-type': contentTypes[path.extname(file)] ?? 'application/octet-stream',
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    }
    if (file === path.join(root, 'index.html')) {
      // The bridge goes first: a classic script runs before the app's deferred module script.
      const html = body.toString('utf8').replace('<head>', '<head>\n    <script src="/__host/bridge.js"></script>')
      response.writeHead(200, headers).end(html)
      return
    }
    response.writeHead(200, headers).end(body)
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve())
  })
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : options.port
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}/`,
    services: runtime.services,
    async close() {
      // Cleared too, so an event emitted while the services shut down writes to no ended stream.
      for (const stream of streams) stream.end()
      streams.clear()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await runtime.close()
    },
  }
}
