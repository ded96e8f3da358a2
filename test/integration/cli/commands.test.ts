import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { strFromU8, unzipSync } from 'fflate'
import { afterEach, describe, expect, it } from 'vitest'
import { commandWords } from '../../../main/cli/command'
import { commands } from '../../../main/cli/run'
import { recordServerRequests } from '../../support/server-requests'
import { useCliDemo } from '../../support/cli-demo'
import { expectFailure, expectSuccess, sandboxFlags } from './support'

/** A folder nobody creates: paths in it cannot be read or written. */
const MISSING = path.join(os.tmpdir(), `adops-cli-missing-${process.pid}-${Date.now()}`)

const demo = useCliDemo('commands')
afterEach(() => {
  demo.sandbox.reset()
})

const env = demo.env
const cli = demo.cli

/** Connection by flags, password from the environment. */
const flags = (): string[] => sandboxFlags(demo.sandbox.info)
const withPassword = (password = 'demo') => env({ ADOPS_PASSWORD: password })

describe('profiles list', () => {
  it('lists saved connections without their secrets', async () => {
    const run = await cli(['profiles', 'list'])
    expectSuccess(run)
    const listed = JSON.parse(run.stdout) as Array<Record<string, unknown>>
    expect(listed).toHaveLength(1)
    expect(listed[0]).toMatchObject({ name: 'Demo', authMethod: 'password', username: 'demo', hasSecret: true, secretStorage: 'keychain' })
    expect(Object.keys(listed[0] ?? {})).not.toContain('password')
    expect(Object.keys(listed[0] ?? {})).not.toContain('token')
  })

  it('an empty folder has no connections', async () => {
    const empty = await mkdtemp(path.join(os.tmpdir(), 'adops-cli-empty-'))
    try {
      const run = await cli(['profiles', 'list', '--user-data', empty])
      expectSuccess(run)
      expect(JSON.parse(run.stdout)).toEqual([])
    } finally {
      await rm(empty, { recursive: true, force: true })
    }
  })
})

describe('entities', () => {
  it('list: every page as one JSON array, with a saved profile', async () => {
    const run = await cli(['entities', 'list', 'publishers', '--profile', 'Demo', '--page-size', '7'])
    expectSuccess(run)
    const publishers = JSON.parse(run.stdout) as Array<{ id: number }>
    expect(publishers).toHaveLength(40)
    expect(new Set(publishers.map((publisher) => publisher.id)).size).toBe(40)
  })

  it('list --format csv: a header of the union of fields, quoted values', async () => {
    const run = await cli(['entities', 'list', 'brands', '--format', 'csv', ...flags()], { env: withPassword() })
    expectSuccess(run)
    const lines = run.stdout.split('\r\n').filter((line) => line !== '')
    expect(lines[0]?.split(',')).toEqual(
      expect.arrayContaining(['id', 'name', 'is_open_auction_allowed', 'is_pmp_allowed', 'external_id', 'advertiser_domains']),
    )
    const brands = JSON.parse((await cli(['entities', 'list', 'brands', ...flags()], { env: withPassword() })).stdout) as unknown[]
    expect(lines).toHaveLength(brands.length + 1)
    expect(run.stdout).toMatch(/"\[""[^"]+""/) // advertiser_domains, a list, written as quoted JSON
  })

  it('list with a permanent token from ADOPS_TOKEN', async () => {
    const run = await cli(
      ['entities', 'list', 'bidders', '--base-url', demo.sandbox.info.base_url, '--auth-url', demo.sandbox.info.auth_url, '--service-id', 'demo'],
      {
        env: env({ ADOPS_TOKEN: demo.sandbox.info.permanent_token }),
      },
    )
    expectSuccess(run)
    expect(Array.isArray(JSON.parse(run.stdout))).toBe(true)
  })

  it('get, create (--data FILE), update (--data -), delete', async () => {
    const created = await (async () => {
      const file = path.join(demo.work, 'brand.json')
      await writeFile(file, JSON.stringify({ name: 'CLI Brand', is_open_auction_allowed: true, is_pmp_allowed: true, external_id: 'CLI-1' }))
      const run = await cli(['entities', 'create', 'brands', '--data', file, '--profile', 'Demo'])
      expectSuccess(run)
      return JSON.parse(run.stdout) as Record<string, unknown> & { id: number }
    })()
    expect(created).toMatchObject({ name: 'CLI Brand', external_id: 'CLI-1' })

    const got = await cli(['entities', 'get', 'brands', String(created.id), '--profile', 'Demo'])
    expectSuccess(got)
    const entity = JSON.parse(got.stdout) as Record<string, unknown>

    const updated = await cli(['entities', 'update', 'brands', String(created.id), '--data', '-', '--profile', 'Demo'], {
      stdin: JSON.stringify({ ...entity, name: 'CLI Brand 2' }),
    })
    expectSuccess(updated)
    expect(JSON.parse(updated.stdout)).toEqual({ kind: 'brands', id: created.id, updated: true })
    expect(JSON.parse((await cli(['entities', 'get', 'brands', String(created.id), '--profile', 'Demo'])).stdout)).toMatchObject({ name: 'CLI Brand 2' })

    const deleted = await cli(['entities', 'delete', 'brands', String(created.id), '--profile', 'Demo'])
    expectSuccess(deleted)
    expect(JSON.parse(deleted.stdout)).toEqual({ kind: 'brands', id: created.id, deleted: true })
    expectFailure(await cli(['entities', 'get', 'brands', String(created.id), '--profile', 'Demo']), 1, /^adops-desk: Not found: .* \[HTTP 404\]$/)
  })

  it('API errors: exit 1 and one line with the HTTP code', async () => {
    expectFailure(
      await cli(['entities', 'create', 'brands', '--data', '-', '--profile', 'Demo'], { stdin: '{"name": ""}' }),
      1,
      /rejected some fields: .*is_pmp_allowed.* \[HTTP 400\]$/,
    )
    const first = JSON.parse((await cli(['entities', 'get', 'publishers', '1', '--profile', 'Demo'])).stdout) as { external_id: string }
    expectFailure(
      await cli(['entities', 'create', 'publishers', '--data', '-', '--profile', 'Demo'], {
        stdin: JSON.stringify({ name: 'Dup', url: 'https://dup.example', external_id: first.external_id }),
      }),
      1,
      /conflict.*\[HTTP 409\]$/,
    )
    expectFailure(await cli(['entities', 'delete', 'publishers', '1', '--profile', 'Demo']), 1, /depend on it.*\[HTTP 406\]$/)
  })

  it('a rejected sign-in: exit 1, "Sign-in rejected" with the code', async () => {
    expectFailure(
      await cli(['entities', 'get', 'publishers', '1', ...flags()], { env: withPassword('wrong') }),
      1,
      /^adops-desk: Sign-in rejected: Invalid username or password\. .*\[HTTP 401\]$/,
    )
  })

  it('a read-only user: exit 1, forbidden', async () => {
    const viewer = ['--base-url', demo.sandbox.info.base_url, '--auth-url', demo.sandbox.info.auth_url, '--service-id', 'demo', '--username', 'viewer']
    expectFailure(await cli(['entities', 'delete', 'bidders', '1', ...viewer], { env: env({ ADOPS_PASSWORD: 'viewer' }) }), 1, /permission.*\[HTTP 403\]$/)
  })

  it('an unreachable platform: exit 1, nothing answers there', async () => {
    const nowhere = ['--base-url', 'http://127.0.0.1:9/wf', '--auth-url', 'http://127.0.0.1:9/auth', '--service-id', 'demo', '--username', 'demo']
    expectFailure(
      await cli(['entities', 'get', 'publishers', '1', ...nowhere], { env: withPassword() }),
      1,
      /Nothing answers at 127\.0\.0\.1:9\..*\[ECONNREFUSED\]$/,
    )
  })

  it('a server error on a write: exit 1, and it was sent once', async () => {
    const received = recordServerRequests(demo.sandbox.port)
    try {
      demo.sandbox.setFaults({ fail_rate: 1 })
      expectFailure(
        await cli(['entities', 'create', 'bidders', '--data', '-', '--profile', 'Demo'], { stdin: '{"name": "Once"}' }),
        1,
        /had a problem.*\[HTTP 500\]$/,
      )
      expect(received.count('POST', '/workflow/v1/bidders/')).toBe(1)
    } finally {
      received.stop()
    }
  })
})

describe('report', () => {
  const base = { project_name: 'demo', slicer_name: 'supply', start_date: '-7d', end_date: 'yesterday' }

  it('info', async () => {
    const run = await cli(['report', 'info', '--project', 'demo', '--slicer', 'supply', '--profile', 'Demo'])
    expectSuccess(run)
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'success', key_fields: expect.any(Array) })
  })

  it('time-series and audience from a request file or standard input', async () => {
    const file = path.join(demo.work, 'ts.json')
    await writeFile(
      file,
      JSON.stringify({ ...base, granularity: 'granularity_day', split_by: ['country'], chart_lines: ['__total__'], data_field: 'impressions' }),
    )
    const series = await cli(['report', 'time-series', '--request', file, '--profile', 'Demo'])
    expectSuccess(series)
    expect((JSON.parse(series.stdout) as { rows: unknown[] }).rows).toHaveLength(7)

    const audience = await cli(['report', 'audience', '--request', '-', ...flags()], {
      env: withPassword(),
      stdin: JSON.stringify({ ...base, split_by: ['country'] }),
    })
    expectSuccess(audience)
    expect(JSON.parse(audience.stdout)).toMatchObject({ status: 'success', total: expect.any(Object) })
  })

  it('a request in an older shape: refused before sending, exit 1 naming the field', async () => {
    const run = await cli(['report', 'export', '--request', '-', '--out', path.join(demo.work, 'old.csv'), '--profile', 'Demo'], {
      stdin: JSON.stringify({
        ...base,
        split_by: ['country'],
        export_format: 'csv',
        data_fields: ['impressions'],
        data_filters: [{ name: 'impressions', operator: '>', value: 1 }],
      }),
    })
    expectFailure(run, 1, /not in the platform's shape \(data_filters\[0\]\.match: .*data_filters\[0\]\.operator: is not read by the platform/)
    const current = await cli(['report', 'time-series', '--request', '-', '--profile', 'Demo'], {
      stdin: JSON.stringify({
        ...base,
        granularity: 'country',
        split_by: [],
        chart_lines: ['__total__'],
        data_field: 'impressions',
        data_filters: [{ name: 'impressions', match: '>', value: '0' }],
        order_by: { name: 'impressions', direction: 'DESC' },
      }),
    })
    expectSuccess(current)
    const values = (JSON.parse(current.stdout) as { rows: Array<{ __total__: number }> }).rows.map((row) => row.__total__)
    expect(values.length).toBeGreaterThan(0)
    expect(values).toEqual([...values].sort((a, b) => b - a))
  })

  it('a report error: exit 1 with the status', async () => {
    expectFailure(
      await cli(['report', 'info', '--project', 'demo', '--slicer', 'nope', '--profile', 'Demo']),
      1,
      /do not have access.*\[HTTP 403, status access_error\]$/,
    )
    expectFailure(
      await cli(['report', 'audience', '--request', '-', '--profile', 'Demo'], { stdin: JSON.stringify({ project_name: 'demo', slicer_name: 'supply' }) }),
      1,
      /\[HTTP 400, status bad_request\]$/,
    )
  })

  it('export writes the file whole and prints where', async () => {
    const out = path.join(demo.work, 'export.csv')
    const run = await cli(['report', 'export', '--request', '-', '--out', out, '--profile', 'Demo'], {
      stdin: JSON.stringify({ ...base, split_by: ['country'], export_format: 'csv', data_fields: ['impressions'] }),
    })
    expectSuccess(run)
    const printed = JSON.parse(run.stdout) as { path: string; bytes: number; contentType: string }
    expect(printed.path).toBe(out)
    expect(printed.contentType).toMatch(/text\/csv/)
    const text = await readFile(out, 'utf8')
    expect(Buffer.byteLength(text)).toBe(printed.bytes)
    // The platform's file as it sent it: scripts read these names.
    expect(text.startsWith('country,country Name,impressions\r\n')).toBe(true)
  })

  it('export --screen-names names the columns as the app does (issue 39); an xlsx then holds its dates as date cells', async () => {
    const out = path.join(demo.work, 'export-screen.csv')
    const request = { ...base, split_by: ['country', 'granularity_day'], export_format: 'csv', data_fields: ['impressions'] }
    expectSuccess(await cli(['report', 'export', '--request', '-', '--out', out, '--profile', 'Demo', '--screen-names'], { stdin: JSON.stringify(request) }))
    expect((await readFile(out, 'utf8')).split('\r\n')[0]).toBe('Country,Day,Impressions')
    const xlsx = path.join(demo.work, 'export.xlsx')
    expectSuccess(
      await cli(['report', 'export', '--request', '-', '--out', xlsx, '--profile', 'Demo', '--screen-names'], {
        stdin: JSON.stringify({ ...request, export_format: 'xlsx' }),
      }),
    )
    const parts = unzipSync(await readFile(xlsx))
    const sheet = strFromU8(parts['xl/worksheets/sheet1.xml'] ?? new Uint8Array())
    expect(sheet).toContain('<t xml:space="preserve">Day</t>')
    expect(sheet).not.toMatch(/>\d{4}-\d{2}-\d{2}</)
    expect(strFromU8(parts['xl/styles.xml'] ?? new Uint8Array())).toContain('formatCode="yyyy-mm-dd"')
  })

  it('a failed export leaves no file at --out and no temp file', async () => {
    const folder = await mkdtemp(path.join(demo.work, 'cut-'))
    const out = path.join(folder, 'cut.csv')
    demo.sandbox.setFaults({ drop_export_after_bytes: 50 })
    expectFailure(
      await cli(['report', 'export', '--request', '-', '--out', out, '--profile', 'Demo'], {
        stdin: JSON.stringify({ ...base, split_by: ['country'], export_format: 'csv', data_fields: ['impressions'] }),
      }),
      1,
      /offline or unreachable|connection/,
    )
    expect(await readdir(folder)).toEqual([])
  })
})

describe('usage errors: exit 2, one line, nothing on stdout', () => {
  it.each([
    [['frobnicate'], /Unknown command "frobnicate"/],
    [['entities', 'explode', 'x'], /Unknown command "entities explode"/],
    [[], /No command given/],
    [['entities'], /"entities" needs a command/],
    [['entities', 'list'], /needs <kind>/],
    [['entities', 'get', 'publishers'], /needs <id>/],
    [['entities', 'get', 'publishers', '1', '2', '--profile', 'Demo'], /Unexpected argument "2"/],
    [['entities', 'list', 'publishers', '--nope'], /Unknown option '--nope'/],
    [['entities', 'list', 'publishers', '--out', 'x'], /--out is not an option of "entities list"/],
    [['entities', 'list', 'Publishers!', '--profile', 'Demo'], /not an entity kind/],
    [['entities', 'get', 'publishers', '..', '--profile', 'Demo'], /entity id cannot be "\." or "\.\."/],
    [['entities', 'delete', 'publishers', '%2E%2e', '--profile', 'Demo'], /entity id cannot be .*%-encoded/],
    [['entities', 'get', 'publishers', '1/../2', '--profile', 'Demo'], /entity id cannot be/],
    [['entities', 'list', 'publishers', '--format', 'xml', '--profile', 'Demo'], /--format must be json or csv/],
    [['entities', 'list', 'publishers', '--profile', 'Nobody'], /No saved connection is named "Nobody"/],
    [['entities', 'list', 'publishers'], /Say where to connect/],
    [['entities', 'create', 'brands', '--profile', 'Demo'], /--data FILE .* is required/],
    [['entities', 'create', 'brands', '--data', path.join(MISSING, 'brand.json'), '--profile', 'Demo'], /Cannot read --data .*brand\.json \(ENOENT\)/],
    [['report', 'info', '--project', 'demo', '--profile', 'Demo'], /needs --project P and --slicer S/],
    [['report', 'export', '--request', '-', '--profile', 'Demo'], /needs --out PATH/],
    [['report', 'export', '--request', '-', '--out', path.join(MISSING, 'x.csv'), '--profile', 'Demo'], /does not exist or cannot be written/],
    [['profiles', 'list', '--profile', 'Demo'], /--profile is not an option of "profiles list"/],
  ])('%j', async (argv, pattern) => {
    expectFailure(await cli(argv), 2, pattern)
  })

  it('bad JSON in --data or --request', async () => {
    expectFailure(
      await cli(['entities', 'create', 'brands', '--data', '-', '--profile', 'Demo'], { stdin: '{"name": ' }),
      2,
      /--data \(standard input\) is not valid JSON/,
    )
    expectFailure(await cli(['entities', 'create', 'brands', '--data', '-', '--profile', 'Demo'], { stdin: '[1, 2]' }), 2, /must hold a JSON object/)
    expectFailure(
      await cli(['report', 'audience', '--request', '-', '--profile', 'Demo'], { stdin: 'nope' }),
      2,
      /--request \(standard input\) is not valid JSON/,
    )
    expectFailure(
      await cli(['report', 'audience', '--request', '-', '--profile', 'Demo'], { stdin: '{"split_by": []}' }),
      2,
      /needs project_name and slicer_name/,
    )
  })

  it('--username without ADOPS_PASSWORD, and an id in --data that is not the one updated', async () => {
    expectFailure(await cli(['entities', 'get', 'publishers', '1', ...flags()]), 2, /ADOPS_PASSWORD/)
    expectFailure(
      await cli(['entities', 'update', 'publishers', '1', '--data', '-', '--profile', 'Demo'], { stdin: '{"id": 2, "name": "x"}' }),
      2,
      /not the id 1/,
    )
  })

  it('--profile cannot be mixed with connection flags', async () => {
    expectFailure(await cli(['entities', 'get', 'publishers', '1', '--profile', 'Demo', '--username', 'demo']), 2, /cannot be combined with --username/)
  })
})

describe('--help', () => {
  it('for the program and every group and command, on stdout, exit 0', async () => {
    const top = await cli(['--help'])
    expectSuccess(top)
    for (const command of commands) expect(top.stdout).toContain(commandWords(command))
    // A one-word command (`pivot`, `sql`) is its own group: its help is the command's.
    for (const group of new Set(commands.filter((command) => command.name !== '').map((command) => command.group))) {
      const run = await cli([group, '--help'])
      expectSuccess(run)
      expect(run.stdout).toContain(`Usage: adops-desk ${group} <command>`)
    }
    for (const command of commands) {
      const run = await cli([...commandWords(command).split(' '), '--help'])
      expectSuccess(run)
      expect(run.stdout).toContain(`Usage: adops-desk ${commandWords(command)}`)
      for (const option of command.options) expect(run.stdout).toContain(`--${option}`)
    }
    expect((await cli(['help', 'report', 'export'])).stdout).toContain('--out')
  })

  it("documents the platform's request shapes in the report commands' help", async () => {
    for (const name of ['time-series', 'export']) {
      const help = (await cli(['report', name, '--help'])).stdout
      expect(help, name).toContain('"data_filters": [{"name": "impressions", "match": ">=", "value": "1"}]')
      expect(help, name).toContain('"direction": "DESC"')
      expect(help, name).toContain('not beginswith, not endswith')
      expect(help, name).toContain('-Nd_m_first')
      expect(help, name).not.toContain('operator')
    }
    const audience = (await cli(['report', 'audience', '--help'])).stdout
    expect(audience).toContain('"audience_key"')
    expect(audience).toContain('10000 to 10000000')
  })
})

describe('the packaged binary', () => {
  it('runs as the command line only when its first argument names a command', async () => {
    const { isCliInvocation } = await import('../../../main/cli/run')
    expect(isCliInvocation(['entities', 'list', 'publishers'])).toBe(true)
    expect(isCliInvocation(['profiles', 'list'])).toBe(true)
    expect(isCliInvocation(['report', 'info'])).toBe(true)
    expect(isCliInvocation(['--help'])).toBe(true)
    // A plain launch, or Chromium switches, start the app.
    expect(isCliInvocation([])).toBe(false)
    expect(isCliInvocation(['--no-sandbox'])).toBe(false)
    expect(isCliInvocation(['/path/to/file.csv'])).toBe(false)
  })
})
