import { promises as fs } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { dispatch } from '../../../main/handlers/dispatch'
import { createHandlers, type Handlers } from '../../../main/handlers/handlers'
import { runHistoryFolder } from '../../../main/services/run-history/run-history-store'
import { Readable } from 'node:stream'
import { ERROR_BODY_LIMIT } from '../../../main/services/http/body'
import { readErrorBody, type HttpResponse } from '../../../main/services/http/client'
import { maskJson, maskSecrets } from '../../../main/services/http/secrets'
import { createRedactor } from '../../../main/services/logs/redact'
import { readLogs } from '../../support/log-scan'
import { createTestServices, type TestServices } from '../../support/services'
import { definition } from '../../unit/reports/fixtures'
import { startStubServer, type StubServer } from './support'

/**
 * A sign-in service that quotes the password back JSON-escaped. Masking used to run on the raw
 * body, where `p\u00e4\/ss` does not look like `päss/`; parsing then decoded it, and the password
 * went on in plain text to the page, the run history and the log.
 */
const PASSWORD = 'pä/ss"wörd\\-51c7e0'

/** Every JSON spelling of each character: `\uXXXX` in either case, the short escapes, or as is. */
const allEscaped = [...PASSWORD].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')
const spellings: Array<[string, string]> = [
  ['short and unicode escapes mixed', 'p\\u00e4\\/ss\\"w\\u00F6rd\\\\-51c7e0'],
  ['every character as \\uXXXX', allEscaped],
  [
    'decomposed (NFD), escaped',
    JSON.stringify(PASSWORD.normalize('NFD'))
      .slice(1, -1)
      .replace(/\u0308/g, '\\u0308')
      .replace('/', '\\/'),
  ],
]

/** Bodies a sign-in service may send with the password in them, JSON or text around JSON (a truncated answer). */
const answers: Array<[string, string, (spelled: string) => string]> = [
  ['a JSON reason', 'application/json', (spelled) => `{"error":"invalid_grant","error_description":"Wrong password ${spelled} for ops"}`],
  ['a JSON field map', 'application/json', (spelled) => `{"password":["\\"${spelled}\\" is not right"],"${spelled}":["key"]}`],
  ['text quoting JSON', 'text/plain', (spelled) => `upstream said {"detail": "bad password ${spelled}"`],
]

let server: StubServer
let services: TestServices
let handlers: Handlers
let profileId: string
let body = ''
let contentType = 'application/json'

beforeAll(async () => {
  server = await startStubServer((_request, response) => {
    response.writeHead(400, { 'content-type': contentType })
    response.end(body)
  })
  services = await createTestServices()
  services.log.setLevel('debug')
  handlers = createHandlers(services, { nativeSaveDialog: false })
  profileId = (
    await services.profiles.create({
      name: 'Echoing sign-in',
      baseUrl: `${server.url}/wf`,
      authUrl: `${server.url}/auth`,
      reportUrl: `${server.url}/rep`,
      serviceId: '1',
      auth: { method: 'password', username: 'ops', password: PASSWORD },
    })
  ).id
})
afterAll(async () => {
  await services.close()
  await server.close()
})
beforeEach(() => services.workspace.forget(profileId))

/** What must appear nowhere: the password as is, composed or decomposed, and in the spellings the server used. */
function expectNoPassword(text: string, where: string): void {
  const forms = [PASSWORD, PASSWORD.normalize('NFD'), JSON.stringify(PASSWORD).slice(1, -1), ...spellings.map(([, spelled]) => spelled)]
  for (const [index, form] of forms.entries()) {
    expect(text.includes(form), `${where} holds the password (spelling ${index})`).toBe(false)
  }
  // Decoding every JSON escape in the text must not bring it back either.
  const decoded = text.replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))).replace(/\\(["\\/])/g, '$1')
  expect(decoded.normalize('NFC').includes(PASSWORD), `${where} holds the password once decoded`).toBe(false)
}

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await fs.readdir(folder, { recursive: true, withFileTypes: true }).catch(() => [])
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name))
}

describe('a password the sign-in service quotes back JSON-escaped stays masked', () => {
  for (const [answer, type, make] of answers) {
    it.each(spellings)(`${answer}, %s: not in the error the page gets, the history or the log`, async (_what, spelled) => {
      contentType = type
      body = make(spelled)
      const outcomes = [
        await dispatch(handlers, 'entities:get', { profileId, kind: 'publishers', id: 1 }),
        await dispatch(handlers, 'profiles:test', { id: profileId }),
        await dispatch(handlers, 'reports:run', { profileId, definition: definition({ project: 'demo', report: 'supply' }) }),
      ]
      expect(outcomes[0]).toMatchObject({ ok: false, error: { code: 'auth' } })
      for (const outcome of outcomes) expectNoPassword(JSON.stringify(outcome), 'the outcome')
      await services.reports.flush()
      const history = await filesUnder(runHistoryFolder(services.userDataDir))
      expect(history.length).toBeGreaterThan(0)
      for (const file of history) expectNoPassword(await fs.readFile(file, 'utf8'), 'the history')
      await services.log.flush()
      const log = await readLogs(services.userDataDir)
      expect(log).toContain('Sign-in rejected')
      expectNoPassword(log, 'the log')
    })
  }
})

describe('the masks know every escaped spelling', () => {
  it.each(spellings)('%s', (_what, spelled) => {
    expect(maskSecrets(`said "${spelled}".`, [PASSWORD])).toBe('said "***".')
    expect(maskJson(JSON.parse(`{"${spelled}":["${spelled}"]}`), [PASSWORD])).toEqual({ '***': ['***'] })
    expect(createRedactor([PASSWORD]).redact(`said "${spelled}".`)).toBe('said "***".')
  })
})

describe('an error body cut at its limit part-way through the password', () => {
  /** A 400 whose body is longer than the limit, the password starting `before` bytes ahead of the cut. */
  async function cutAnswer(spelled: string, before: number): Promise<string> {
    const padding = 'x'.repeat(ERROR_BODY_LIMIT - before)
    const response = {
      status: 400,
      headers: { 'content-type': 'text/plain' },
      body: Readable.from([Buffer.from(`${padding}${spelled} and more after it`)]),
      context: { method: 'POST', url: 'https://auth.example/token' },
      secrets: [PASSWORD],
    } as unknown as HttpResponse
    const read = await readErrorBody(response)
    return read.kind === 'text' ? read.text : JSON.stringify(read)
  }

  // Before the fix the kept text ended with the password's first `before` characters, which no
  // mask of the whole password could find.
  it.each([
    ['as is', PASSWORD],
    ['every character as \\uXXXX', allEscaped],
  ])('%s: no prefix of it is kept', async (_what, spelled) => {
    for (const before of [3, 8, Math.floor(spelled.length / 2), spelled.length - 1]) {
      const text = await cutAnswer(spelled, before)
      const tail = text.slice(-spelled.length * 2)
      expect(tail.includes(spelled.slice(0, before)), `${before} bytes of it before the cut`).toBe(false)
      expect(text.endsWith('…')).toBe(true)
      expect(text.length).toBeGreaterThan(ERROR_BODY_LIMIT - 1_000)
    }
  })

  it('a body within the limit is kept whole', async () => {
    const response = {
      status: 400,
      headers: { 'content-type': 'text/plain' },
      body: Readable.from([Buffer.from('short answer')]),
      context: { method: 'POST', url: 'https://auth.example/token' },
      secrets: [PASSWORD],
    } as unknown as HttpResponse
    expect(await readErrorBody(response)).toEqual({ kind: 'text', text: 'short answer', contentType: 'text/plain' })
  })
})
