import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createHttpClient } from '../../../main/services/http/client'

// The HTTP client exactly as the command line's build has it: `undici` is build/cli-undici.mjs.
vi.mock('undici', () => import('../../../build/cli-undici.mjs'))

/** Answers 503 to the first request of each path, then 200 with the path: a read is retried once. */
let url = ''
const seen: string[] = []
const server = createServer((request, response) => {
  const path = request.url ?? ''
  const first = !seen.includes(path)
  seen.push(path)
  if (first) {
    response.writeHead(503, { 'content-type': 'text/plain' })
    response.end('busy')
    return
  }
  response.writeHead(200, { 'content-type': 'text/plain' })
  response.end(`answer to ${path}`)
})
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

describe("the command line's undici (only the files the HTTP client uses)", () => {
  it('has what the client needs, and not the rest of undici', async () => {
    const lean: Record<string, unknown> = await import('../../../build/cli-undici.mjs')
    expect(Object.keys(lean).sort()).toEqual(['Agent', 'interceptors'])
    expect(Object.keys(lean.interceptors as object)).toEqual(['retry'])
  })

  it("carries the client's requests, retries a read, and hands back a write's answer as it is", async () => {
    const http = createHttpClient({ retry: { baseDelayMs: 1, maxDelayMs: 1 } })
    try {
      const read = await http.request({ method: 'GET', url: `${url}/read`, read: true })
      expect(read.status).toBe(200)
      expect(await read.body.text()).toBe('answer to /read')
      const write = await http.request({ method: 'POST', url: `${url}/write`, body: '{}', read: false })
      expect(write.status).toBe(503)
      await write.body.dump()
    } finally {
      await http.close()
    }
    expect(seen).toEqual(['/read', '/read', '/write'])
  })
})
