import { promises as fs } from 'node:fs'
import path from 'node:path'
import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startWebHost, type WebHost } from '../../../main/hosts/web/server'
import { createMemoryKeychain, type MemoryKeychain } from '../../support/memory-keychain'
import { passwordProfile, temporaryFolder } from '../../support/services'

/**
 * The web host behind `npm run preview:web` as an attacker in the same browser sees it: a
 * website the user visits (cross-site requests, `<script src>` of our files) or a rebinding
 * DNS name that points at 127.0.0.1. None of them may get the per-run token or any answer.
 */

const SERVICE = 'AdOps Desk web host test'
let host: WebHost
let keychain: MemoryKeychain
let port: number
let ownHost: string
let ownOrigin: string

async function minimalRenderer(): Promise<string> {
  const rendererDir = await temporaryFolder('adops-renderer-')
  await fs.writeFile(
    path.join(rendererDir, 'index.html'),
    '<!doctype html>\n<html>\n  <head>\n    <title>AdOps Desk</title>\n  </head>\n  <body><div id="app"></div></body>\n</html>\n',
  )
  return rendererDir
}

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
}

/** One request with exactly these headers (Host included when given), read to the end unless it is the event stream. */
async function call(pathname: string, options: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  const controller = new AbortController()
  const response = await request(`http://127.0.0.1:${port}${pathname}`, {
    method: options.method ?? 'GET',
    headers: options.headers ?? {},
    body: options.body,
    signal: controller.signal,
  })
  if (String(response.headers['content-type']).startsWith('text/event-stream')) {
    // An open stream never ends: its first bytes are enough to know it was granted.
    const first = (await response.body[Symbol.asyncIterator]().next()) as IteratorResult<Buffer>
    controller.abort()
    return { status: response.statusCode, headers: response.headers, text: first.done ? '' : first.value.toString('utf8') }
  }
  return { status: response.statusCode, headers: response.headers, text: await response.body.text() }
}

/** What the page's own script finds in index.html: the token in a meta element. */
async function pageToken(): Promise<string> {
  const page = await call('/', { headers: { host: ownHost, 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' } })
  const token = /<meta name="adops-host-token" content="([0-9a-f]+)"/.exec(page.text)?.[1]
  if (!token) throw new Error(`no token in the page: ${page.text}`)
  return token
}

/** A bridge call as the page makes it: own Host, own Origin, the token, a JSON body. */
function invoke(channel: string, input: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return call(`/__host/invoke/${channel}`, {
    method: 'POST',
    headers: { host: ownHost, origin: ownOrigin, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin', ...headers },
    body: JSON.stringify(input),
  })
}

beforeAll(async () => {
  keychain = createMemoryKeychain()
  host = await startWebHost({
    port: 0,
    userDataDir: await temporaryFolder(),
    rendererDir: await minimalRenderer(),
    keychainServiceName: SERVICE,
    openKeychain: async () => keychain,
  })
  port = Number(new URL(host.url).port)
  ownHost = `127.0.0.1:${port}`
  ownOrigin = `http://${ownHost}`
})
afterAll(() => host.close())

describe('the page and the bridge', () => {
  it('carry the token only in the page served to its own Host, in a meta element, with no inline script', async () => {
    const token = await pageToken()
    const page = await call('/', { headers: { host: ownHost } })
    const csp = String(page.headers['content-security-policy'])
    expect(csp).toContain("script-src 'self'")
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/)
    expect(csp).toContain("frame-ancestors 'none'")
    // Every script is loaded from our origin; none is inline (the CSP would block it anyway).
    const scripts = [...page.text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    expect(scripts.length).toBeGreaterThan(0)
    for (const [, attributes, content] of scripts) {
      expect(attributes).toMatch(/\bsrc="\/__host\/bridge\.js"/)
      expect(content?.trim()).toBe('')
    }
    const bridge = await call('/__host/bridge.js', {
      headers: { host: ownHost, 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'script' },
    })
    expect(bridge.status).toBe(200)
    expect(bridge.text).toContain('adops-host-token')
    expect(bridge.text).not.toContain(token)
    // The contract's names, not its schemas: main validates every call.
    expect(bridge.text).toContain('"app:info"')
    expect(bridge.text).not.toMatch(/zod|safeParse/i)
  })

  it("defers the bridge: the page's parser and the app's modules do not wait for it, and it still runs before them", async () => {
    const page = await call('/', { headers: { host: ownHost } })
    // Deferred classic scripts and module scripts run in document order once the page is parsed.
    expect(page.text).toMatch(/<script defer src="\/__host\/bridge\.js"><\/script>/)
  })

  it('answers its own page: a call and the event stream', async () => {
    const token = await pageToken()
    const info = await invoke('app:info', {}, { 'x-adops-host-token': token })
    expect(info.status).toBe(200)
    expect(JSON.parse(info.text)).toMatchObject({ ok: true, value: { capabilities: { nativeSaveDialog: false } } })
    // A same-origin EventSource sends no Origin (it is a GET), but Sec-Fetch-Site says where it comes from.
    const stream = await call(`/__host/events?token=${token}`, { headers: { host: ownHost, 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' } })
    expect(stream.status).toBe(200)
    expect(stream.text).toContain(': connected')
  })
})

describe('DNS rebinding: a Host other than 127.0.0.1, localhost or [::1] on its own port', () => {
  it('gets 421 on every path, with no page, no token and no data', async () => {
    const token = await pageToken()
    for (const rebound of [
      'evil.example',
      `evil.example:${port}`,
      `127.0.0.1:${port + 1}`,
      `localhost:${port + 1}`,
      '127.0.0.1',
      `localhost.evil.example:${port}`,
      `127.0.0.1.evil.example:${port}`,
    ]) {
      const origin = `http://${rebound}`
      const answers = [
        await call('/', { headers: { host: rebound } }),
        await call('/index.html', { headers: { host: rebound } }),
        await call('/__host/bridge.js', { headers: { host: rebound } }),
        await call('/__host/invoke/profiles:list', {
          method: 'POST',
          headers: { host: rebound, origin, 'content-type': 'application/json', 'x-adops-host-token': token },
          body: '{}',
        }),
        await call(`/__host/events?token=${token}`, { headers: { host: rebound, origin } }),
      ]
      for (const answer of answers) {
        expect(answer.status, rebound).toBe(421)
        expect(answer.text, rebound).not.toContain(token)
        expect(answer.text, rebound).not.toContain('"ok"')
      }
    }
  })

  it('serves 127.0.0.1, localhost and [::1] on its port', async () => {
    for (const own of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`]) {
      const page = await call('/', { headers: { host: own } })
      expect(page.status, own).toBe(200)
      expect(page.text, own).toContain('adops-host-token')
    }
  })
})

describe('cross-site requests', () => {
  it('a call from another origin gets nothing, even with the token', async () => {
    const token = await pageToken()
    for (const origin of ['https://evil.example', `http://localhost:${port + 1}`, `http://127.0.0.1:${port + 1}`, 'null']) {
      const refused = await invoke('profiles:list', {}, { origin, 'x-adops-host-token': token, 'sec-fetch-site': 'cross-site' })
      expect(refused.status, origin).toBe(403)
      expect(refused.text, origin).not.toContain('"ok"')
    }
  })

  it('a state-changing call without Origin is refused and changes nothing', async () => {
    const token = await pageToken()
    const refused = await call('/__host/invoke/profiles:create', {
      method: 'POST',
      headers: { host: ownHost, 'content-type': 'application/json', 'x-adops-host-token': token },
      body: JSON.stringify({ ...passwordProfile, name: 'Planted' }),
    })
    expect(refused.status).toBe(403)
    const listed = JSON.parse((await invoke('profiles:list', {}, { 'x-adops-host-token': token })).text) as { ok: boolean; value: Array<{ name: string }> }
    expect(listed.ok).toBe(true)
    expect(listed.value.map((profile) => profile.name)).not.toContain('Planted')
  })

  it('the event stream from another site gets nothing, even with the token', async () => {
    const token = await pageToken()
    const withOrigin = await call(`/__host/events?token=${token}`, {
      headers: { host: ownHost, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors' },
    })
    expect(withOrigin.status).toBe(403)
    const noCors = await call(`/__host/events?token=${token}`, { headers: { host: ownHost, 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'no-cors' } })
    expect(noCors.status).toBe(403)
    for (const answer of [withOrigin, noCors]) expect(answer.text).not.toContain('connected')
  })

  it('a <script src> of the bridge or an iframe of the page from another site gets no token', async () => {
    const token = await pageToken()
    const script = await call('/__host/bridge.js', {
      headers: { host: ownHost, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'script' },
    })
    expect(script.status).toBe(403)
    expect(script.text).not.toContain(token)
    const frame = await call('/', { headers: { host: ownHost, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'iframe' } })
    expect(frame.status).toBe(403)
    expect(frame.text).not.toContain('adops-host-token')
    const fetched = await call('/', {
      headers: { host: ownHost, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' },
    })
    expect(fetched.status).toBe(403)
    expect(fetched.text).not.toContain('adops-host-token')
  })

  it('a link from another site still opens the page (a top-level navigation cannot read it)', async () => {
    const page = await call('/', { headers: { host: ownHost, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' } })
    expect(page.status).toBe(200)
  })
})

describe('listening address', () => {
  it('is loopback only', async () => {
    for (const address of ['0.0.0.0', '::', '192.168.1.10', 'example.com']) {
      await expect(
        startWebHost({
          port: 0,
          host: address,
          userDataDir: await temporaryFolder(),
          rendererDir: await minimalRenderer(),
          keychainServiceName: SERVICE,
          openKeychain: async () => createMemoryKeychain(),
        }),
        address,
      ).rejects.toThrow(/loopback/)
    }
  })
})

describe('secrets of the preview', () => {
  it('are filed under its keychain service name and removed when it closes', async () => {
    const own = createMemoryKeychain()
    const preview = await startWebHost({
      port: 0,
      userDataDir: await temporaryFolder(),
      rendererDir: await minimalRenderer(),
      keychainServiceName: 'AdOps Desk (web preview) test',
      openKeychain: async () => own,
    })
    const previewPort = Number(new URL(preview.url).port)
    const headers = { host: `127.0.0.1:${previewPort}`, origin: `http://127.0.0.1:${previewPort}`, 'content-type': 'application/json' }
    const page = await request(preview.url, { headers: { host: headers.host } })
    const token = /<meta name="adops-host-token" content="([0-9a-f]+)"/.exec(await page.body.text())?.[1] ?? ''
    const created = await request(new URL('/__host/invoke/profiles:create', preview.url), {
      method: 'POST',
      headers: { ...headers, 'x-adops-host-token': token },
      body: JSON.stringify(passwordProfile),
    })
    expect(JSON.parse(await created.body.text())).toMatchObject({ ok: true })
    expect([...own.entries.keys()].map((key) => key.split('\u0000')[0])).toEqual(['AdOps Desk (web preview) test'])
    await preview.close()
    expect([...own.entries.keys()]).toEqual([])
  })
})
