import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { ReportDefinition } from '@contract'
import { copyRequests, type RequestCopy } from '../../../main/services/presets/api-request'
import { jsonForCopy, shellQuote, visibleText } from '../../../main/services/presets/copy-text'
import { normaliseInfo } from '../../../main/services/reports/info'
import { clock, definition, rawInfo } from '../reports/fixtures'

/**
 * Names a platform user could give a shared custom field, which then reach everyone's `info`.
 * Each tries to make a pasted copy run `touch pwned` (or to steer the terminal, or to read
 * differently from what runs). The app must copy them so that a paste runs only curl.
 */
const hostile = [
  'imps\ntouch pwned',
  'imps\rtouch pwned',
  'imps\r\ntouch pwned',
  'imps\u2028touch pwned',
  'imps\u2029touch pwned',
  'imps\u0085touch pwned',
  "imps'; touch pwned; echo '",
  'imps"; touch pwned; echo "',
  'imps$(touch pwned)',
  'imps`touch pwned`',
  'imps\u001b]0;title\u0007\u009b31m',
  'imps\u202etouch pwned\u202c\u200b\u2066',
  'imps\u0000\u007f\\',
]

const keyName = (index: number): string => `key ${hostile[index % hostile.length] as string}`

function hostileInfo() {
  const keys = hostile.map((_, index) => ({ name: keyName(index), description: 'Shared key', type: 'text', mapping: null, is_segmented: 0 }))
  const data = hostile.map((name) => ({ name, description: 'Shared metric', display_type: 'int', formula: null }))
  return normaliseInfo(
    { ...rawInfo, key_fields: [...rawInfo.key_fields, ...keys], data_fields: [...rawInfo.data_fields, ...data] },
    'demo',
    'supply',
    '2024-06-15T10:00:00.000Z',
    null,
  )
}

const context = { info: hostileInfo(), clock, reportUrl: 'https://reports.example.com/', lastLines: null }

/** Copies that put every hostile name in a purpose and a body: charts, comparisons, rankings over one key and over two. */
function copies(): Array<{ definition: ReportDefinition; copy: RequestCopy }> {
  const made: ReportDefinition[] = hostile.flatMap((name, index) => [
    definition({
      metrics: [name, 'impressions'],
      comparison: 'previous_period',
      breakdown: [keyName(index)],
      lines: { mode: 'top', count: 3, by: name, includeTotal: true },
    }),
    definition({ metrics: [name], breakdown: [keyName(index), keyName(index + 1)], lines: { mode: 'top', count: 3, by: null, includeTotal: false } }),
    definition({ metrics: [name], breakdown: [keyName(index)], lines: { mode: 'pick', values: [name], includeTotal: true } }),
  ])
  return made.map((made) => ({ definition: made, copy: copyRequests(made, 'chart', context) }))
}

/** A single-quoted POSIX word, the only kind of argument the copy may hold ('\'' for a quote inside). */
const QUOTED = String.raw`'[^']*(?:'\\''[^']*)*'`
const unquote = (word: string): string => word.slice(1, -1).replace(/'\\''/g, "'")

/** What each line of a copied command may be; anything else is a line a shell could run. */
const LINE_SHAPES = [
  new RegExp(`^# (${QUOTED})$`),
  new RegExp(`^curl -sS -X POST (${QUOTED}) \\\\$`),
  new RegExp(`^  -H (${QUOTED}) \\\\$`),
  new RegExp(`^  --data-raw (${QUOTED})$`),
  /^$/,
]

/** Anything a terminal or a reader treats as more than a printable character. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Co}\p{Cn}]/u

describe('"Copy as API request" is safe to paste, whatever the server names its fields', () => {
  it('writes every line as a quoted comment, a curl line or a blank, with no control or invisible character anywhere', () => {
    for (const { copy } of copies()) {
      const lines = copy.curl.split('\n')
      expect(lines.pop()).toBe('')
      for (const line of lines) {
        expect(INVISIBLE.test(line), JSON.stringify(line)).toBe(false)
        expect(
          LINE_SHAPES.some((shape) => shape.test(line)),
          line,
        ).toBe(true)
      }
      // One comment and one curl command per request, in order.
      expect(lines.filter((line) => line.startsWith('# ')).map((line) => unquote(line.slice(2)))).toEqual(copy.requests.map((request) => request.purpose))
      expect(lines.filter((line) => line.startsWith('curl ')).length).toBe(copy.requests.length)
      for (const request of copy.requests) {
        expect(INVISIBLE.test(request.purpose), request.purpose).toBe(false)
        expect(INVISIBLE.test(request.body.replace(/\n/g, ' ')), request.body).toBe(false)
      }
    }
  })

  it('quotes each word so that the shell hands curl exactly the body the app would send', () => {
    for (const { definition: made, copy } of copies()) {
      const bodies = copy.curl
        .split('\n')
        .map((line) => new RegExp(`^  --data-raw (${QUOTED})$`).exec(line)?.[1])
        .filter((word): word is string => word !== undefined)
      expect(bodies.map((word) => JSON.parse(unquote(word)) as unknown)).toEqual(copy.requests.map((request) => JSON.parse(request.body) as unknown))
      // The escapes are JSON's own: the platform reads the very name it sent.
      expect(JSON.stringify(bodies.map((word) => JSON.parse(unquote(word)) as unknown))).toContain(JSON.stringify(made.metrics[0]))
    }
  })

  it('shows names in purposes with their hidden characters escaped', () => {
    const [first] = copyRequests(definition({ metrics: ['imps\n\u202eevil'] }), 'chart', {
      ...context,
      info: normaliseInfo(
        { ...rawInfo, data_fields: [...rawInfo.data_fields, { name: 'imps\n\u202eevil', description: 'x', display_type: 'int', formula: null }] },
        'demo',
        'supply',
        '2024-06-15T10:00:00.000Z',
        null,
      ),
    }).requests
    expect(first?.purpose).toBe('Chart: imps\\u{000A}\\u{202E}evil')
    expect(visibleText('plain name')).toBe('plain name')
    expect(shellQuote("it's")).toBe(`'it'\\''s'`)
    expect(JSON.parse(jsonForCopy({ name: 'a\u2028b\u009b\u202e' })) as unknown).toEqual({ name: 'a\u2028b\u009b\u202e' })
  })
})

/** The shells a copy may land in, those this machine has. */
const shells = ['sh', 'bash', 'dash', 'zsh'].filter((shell) => spawnSync(shell, ['-c', 'exit 0']).status === 0)

describe.runIf(shells.length > 0)('pasting the copy into a real shell runs curl and nothing else', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'adops-paste-'))
  afterAll(() => rmSync(folder, { recursive: true, force: true }))

  /**
   * Runs the copied text with `curl` as a function that records its arguments. The second time,
   * each `#` comment becomes the `:` command: that is how zsh reads the lines at its prompt
   * without `interactivecomments` (its default), where `#` is not a comment.
   */
  function paste(shell: string, text: string): string[][] {
    const record = path.join(folder, `${shell}.args`)
    rmSync(record, { force: true })
    const script = `curl() { for word in "$@"; do printf '%s\\036' "$word"; done >> '${record}'; printf '\\035' >> '${record}'; }\n${text}`
    const ran = spawnSync(shell, ['-c', script], { cwd: folder, encoding: 'utf8' })
    expect(ran.stderr).toBe('')
    expect(ran.status).toBe(0)
    return readFileSync(record, 'utf8')
      .split('\u001d')
      .filter((call) => call !== '')
      .map((call) => call.split('\u001e').slice(0, -1))
  }

  it.each(shells)('%s', (shell) => {
    // All copies in one script, one shell each way: what each call received, in order.
    const all = copies().map(({ copy }) => copy)
    const script = all.map((copy) => copy.curl).join('\n')
    const requests = all.flatMap((copy) => copy.requests)
    for (const text of [script, script.replace(/^# /gm, ': ')]) {
      const calls = paste(shell, text)
      expect(calls.map((call) => JSON.parse(call.at(-1) ?? '') as unknown)).toEqual(requests.map((request) => JSON.parse(request.body) as unknown))
      expect(calls.map((call) => call[3])).toEqual(requests.map((request) => request.url))
    }
    expect(readdirSync(folder).filter((name) => !name.endsWith('.args'))).toEqual([])
  })
})
