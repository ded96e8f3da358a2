/**
 * The web host: serves the built renderer to a browser with window.api wired to the real
 * main-process handlers (same services, same dispatch, same contract) over HTTP. This is how
 * the app is looked at and tested where Electron cannot run. Loopback only, and only its own
 * origin (guard.ts): every call must carry the per-run token, which only the page itself gets,
 * so another page in the browser (or a rebinding DNS name) cannot drive it.
 */
import http from 'node:http'
import { promises as fs } from 'node:fs'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import { eventChannel } from '@contract'
import { dispatch } from '../../handlers/dispatch'
import { createRuntime, type LoadSandbox } from '../../runtime'
import type { Services } from '../../services'
import type { HttpClientOptions } from '../../services/http/client'
import type { Keychain } from '../../services/secrets/keychain'
import { loadKeytar } from '../../services/secrets/keychain'
import { isLoopbackAddress, refusal, tokenMatches, type RouteKind } from './guard'
import { webHostLayout } from './layout'
import { BRIDGE_PATH, bundleBridge, COMMON_HEADERS, contentTypes, serveRendererFile } from './page-files'

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
  /** 127.0.0.1 (default), localhost or ::1: anything else is refused. */
  host?: string
  userDataDir: string
  rendererDir: string
  /**
   * A name of its own, never the app's: what the preview stores is removed when it closes, and
   * must not be confused with (or remove) the desktop app's secrets.
   */
  keychainServiceName: string
  openKeychain?: () => Promise<Keychain>
  /** Default: the demo backend in a worker thread, started when the demo first opens, as in the app. */
  loadSandbox?: LoadSandbox
  /** Default `production`: the app's own retry policy. */
  retryProfile?: RetryProfile
  /** Default true: the analysis engine loads in the background a moment after start, as in the app. */
  engineWarmUp?: boolean
}

export interface WebHost {
  url: string
  services: Services
  /** Stops serving and removes from the keychain every secret this run stored. */
  close(): Promise<void>
}

const MAX_BODY_BYTES = 8 * 1024 * 1024

class BodyTooLarge extends Error {}

async function readBody(request: http.IncomingMessage): Promise<string> {
  if (Number(request.headers['content-length'] ?? 0) > MAX_BODY_BYTES) throw new BodyTooLarge()
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request) {
    size += (chunk as Buffer).length
    if (size > MAX_BODY_BYTES) throw new BodyTooLarge()
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** What a call over the bound gets: a sentence the page can show, not a generic "malformed input". */
const TOO_LARGE_OUTCOME = JSON.stringify({
  ok: false,
  error: { code: 'bad_input', message: `This call carries more than ${MAX_BODY_BYTES / (1024 * 1024)} MiB, more than the web preview accepts.` },
})

/**
 * The demo backend as the app runs it (sandbox/in-worker.ts: a worker thread, started when the
 * demo first opens): the worker built beside out/web/preview-web.js, or worker.ts through tsx
 * when the host runs from source (layout.ts).
 */
const loadSandboxInWorker: LoadSandbox = async () => {
  const { sandboxInWorker } = await import('../../sandbox/in-worker')
  return sandboxInWorker(webHostLayout(import.meta.url).sandboxWorker)
}

/** The keychain, noting each account a secret is stored under. */
function recordingKeychain(openKeychain: () => Promise<Keychain>, stored: StoredSecrets): () => Promise<Keychain> {
  return async () => {
    const keychain = await openKeychain()
    stored.keychain = keychain
    return {
      getPassword: (service, account) => keychain.getPassword(service, account),
      deletePassword: (service, account) => keychain.deletePassword(service, account),
      async setPassword(service, account, password) {
        await keychain.setPassword(service, account, password)
        stored.entries.set(`${service}\u0000${account}`, { service, account })
      },
    }
  }
}

/** What this run put in the keychain, and the keychain it went to: removed again on close. */
interface StoredSecrets {
  keychain: Keychain | null
  entries: Map<string, { service: string; account: string }>
}

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const indexPath = path.join(options.rendererDir, 'index.html')
  await fs.access(indexPath).catch(() => {
    throw new Error(`No built renderer at ${options.rendererDir}. Run "npm run build" first.`)
  })
  const listenOn = options.host ?? '127.0.0.1'
  if (!isLoopbackAddress(listenOn)) {
    throw new Error(
      `The web host listens on a loopback address only (127.0.0.1, localhost or ::1), not '${listenOn}': it serves your connections and secrets to whoever reaches it.`,
    )
  }
  const token = randomBytes(24).toString('hex')
  const streams = new Set<http.ServerResponse>()
  // The accounts this run stored a secret under, removed again on close.
  const storedSecrets: StoredSecrets = { keychain: null, entries: new Map() }
  const runtime = await createRuntime({
    userDataDir: options.userDataDir,
    keychainServiceName: options.keychainServiceName,
    environment: { version: '0.1.0-web', platform: `${process.platform} (web preview)` },
    host: {
      openKeychain: recordingKeychain(options.openKeychain ?? loadKeytar, storedSecrets),
      loadSandbox: options.loadSandbox ?? loadSandboxInWorker,
      // No OS dialogs in a browser: files are read from <user data>/imports and written to <user data>/exports.
      sendEvent: (event, payload) => {
        const line = `data: ${JSON.stringify({ channel: eventChannel(event), payload })}\n\n`
        for (const stream of streams) stream.write(line)
      },
    },
    http: retryProfiles[options.retryProfile ?? 'production'],
    ...(options.engineWarmUp === undefined ? {} : { engineWarmUp: options.engineWarmUp }),
    // build/licenses.mjs writes it beside out/renderer; logs go to <user data>/logs, the theme follows the browser.
    licensesFile: path.join(options.rendererDir, '..', 'licenses.json'),
  })
  const bridge = await bundleBridge(webHostLayout(import.meta.url).bridgeScript)
  // The real port once listening (options.port may be 0); nothing is answered before that.
  let port = options.port

  const server = http.createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' })
      response.end(String(error))
    })
  })

  async function handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://host')
    const kind: RouteKind = url.pathname.startsWith('/__host/invoke/') ? 'call' : url.pathname === '/__host/events' ? 'events' : 'file'
    const refused = refusal(request.headers, port, kind)
    if (refused) {
      response.writeHead(refused.status, { ...COMMON_HEADERS, 'content-type': 'text/plain; charset=utf-8' }).end(refused.reason)
      return
    }
    if (kind === 'call') {
      if (request.method !== 'POST') {
        response.writeHead(405, { ...COMMON_HEADERS, allow: 'POST' }).end()
        return
      }
      if (!tokenMatches(request.headers['x-adops-host-token'], token)) {
        response.writeHead(403, { ...COMMON_HEADERS, 'content-type': 'application/json' }).end('{"error":"forbidden"}')
        return
      }
      // JSON only: a cross-origin page cannot send it without a preflight this host never grants.
      if (!/^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? '')) {
        response.writeHead(415, { ...COMMON_HEADERS, 'content-type': 'application/json' }).end('{"error":"calls are application/json"}')
        return
      }
      const channel = decodeURIComponent(url.pathname.slice('/__host/invoke/'.length))
      let input: unknown
      try {
        input = JSON.parse(await readBody(request))
      } catch (error) {
        if (error instanceof BodyTooLarge) {
          // The rest of the body is never read, so this connection cannot carry another call: close it
          // instead of leaving the unread bytes to be taken for the next request.
          response.writeHead(200, { ...COMMON_HEADERS, 'content-type': 'application/json', connection: 'close' }).end(TOO_LARGE_OUTCOME)
          request.destroy()
          return
        }
        input = Symbol('unparseable')
      }
      const outcome = await dispatch(runtime.handlers, channel, input)
      response.writeHead(200, { ...COMMON_HEADERS, 'content-type': 'application/json' }).end(JSON.stringify(outcome))
      return
    }
    if (kind === 'events') {
      if (!tokenMatches(url.searchParams.get('token'), token)) {
        response.writeHead(403, COMMON_HEADERS).end()
        return
      }
      response.writeHead(200, { ...COMMON_HEADERS, 'content-type': 'text/event-stream', connection: 'keep-alive' })
      response.write(': connected\n\n')
      streams.add(response)
      request.on('close', () => streams.delete(response))
      return
    }
    if (url.pathname === BRIDGE_PATH) {
      response.writeHead(200, { ...COMMON_HEADERS, 'content-type': contentTypes['.js'] as string }).end(bridge)
      return
    }
    await serveRendererFile(options.rendererDir, token, url.pathname, response)
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, listenOn, () => resolve())
  })
  const address = server.address()
  if (typeof address === 'object' && address) port = address.port
  const urlHost = listenOn.includes(':') ? `[${listenOn.replace(/^\[|\]$/g, '')}]` : listenOn
  return {
    url: `http://${urlHost}:${port}/`,
    services: runtime.services,
    async close() {
      // Cleared too, so an event emitted while the services shut down writes to no ended stream.
      for (const stream of streams) stream.end()
      streams.clear()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      // Straight from the keychain they went to; the secret index corrects itself at the next read, so a restart asks again.
      for (const { service, account } of storedSecrets.entries.values()) await storedSecrets.keychain?.deletePassword(service, account).catch(() => undefined)
      await runtime.close()
    },
  }
}
