import { promises as fs } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startSandbox, type Sandbox } from '../../../main/sandbox'
import type { Entity } from '@contract'
import { dispatch } from '../../../main/handlers/dispatch'
import { createHandlers } from '../../../main/handlers/handlers'
import { dialogFolders } from '../../../main/services/files/folder-dialogs'
import { createMemoryKeychain } from '../../support/memory-keychain'
import { createTestServices, temporaryFolder } from '../../support/services'
import { recordWire } from '../clients/support/sandbox'

/** A profile pointing at the sandbox, made through the same store the app uses. */
async function sandboxProfile(services: Awaited<ReturnType<typeof createTestServices>>, sandbox: Sandbox, user: 'demo' | 'viewer' = 'demo') {
  const { info } = sandbox
  return services.profiles.create({
    name: `Sandbox ${user}`,
    baseUrl: info.base_url,
    authUrl: info.auth_url,
    reportUrl: info.report_url,
    serviceId: info.service_id,
    defaultProject: 'demo',
    defaultSlicer: 'supply',
    auth: { method: 'password', username: user, password: user },
  })
}

async function putDirectly(sandbox: Sandbox, kind: string, entity: Entity): Promise<void> {
  const token = await fetch(`${sandbox.info.auth_url}/oauth2/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username: 'demo', password: 'demo', scope: 'service_id=demo' }),
  }).then((response) => response.json() as Promise<{ access_token: string }>)
  const response = await fetch(`${sandbox.info.base_url}/${kind}/${entity.id}/`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify(entity),
  })
  expect(response.status).toBe(204)
}

describe('entity service against the sandbox', () => {
  let sandbox: Sandbox
  let services: Awaited<ReturnType<typeof createTestServices>>
  let profileId: string
  const keychain = createMemoryKeychain()

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 })
    services = await createTestServices({ keychain })
    profileId = (await sandboxProfile(services, sandbox)).id
  })
  afterAll(async () => {
    await services.close()
    await sandbox.close()
  })

  it('syncs every page, streams rows as events, and keeps a mirror on disk that opens offline', async () => {
    const pages: Array<{ fetched: number; count: number; rows: number }> = []
    const stop = services.events.subscribe((event, payload) => {
      if (event === 'onSyncProgress') {
        const progress = payload as { fetched: number; count: number; rows: Entity[] }
        pages.push({ fetched: progress.fetched, count: progress.count, rows: progress.rows.length })
      }
    })
    const result = await services.entities.sync(profileId, 'ad_units', new AbortController().signal)
    stop()
    expect(result.count).toBeGreaterThan(300)
    expect(pages.length).toBeGreaterThan(1)
    expect(pages.at(-1)).toMatchObject({ fetched: result.count, count: result.count })
    expect(pages.reduce((sum, page) => sum + page.rows, 0)).toBe(result.count)

    // A fresh start over the same folder, with the platform gone: the list is still there.
    const offline = await createTestServices({ keychain, userDataDir: services.userDataDir })
    const mirror = await offline.entities.mirror(profileId, 'ad_units')
    expect(mirror.rows).toHaveLength(result.count)
    expect(mirror.syncedAt).toBe(result.syncedAt)
    expect(mirror.rows[0]).toHaveProperty('publisher')
  })

  it('creates, then detects an edit conflict and resolves it both ways; never a silent lost update', async () => {
    const created = await services.entities.create(profileId, 'brands', {
      name: 'Conflict Co',
      is_open_auction_allowed: true,
      is_pmp_allowed: false,
      advertiser_domains: ['conflict.example'],
    })
    expect(created.id).toBeDefined()
    expect((await services.entities.mirror(profileId, 'brands')).rows.some((row) => row.id === created.id)).toBe(true)

    // Someone else changes it behind the form's back.
    await putDirectly(sandbox, 'brands', { ...created, is_pmp_allowed: true, external_id: 'theirs' })
    const attempt = await services.entities.update(profileId, 'brands', created.id, created, { name: 'Conflict Co (mine)' }, false)
    expect(attempt.status).toBe('conflict')
    if (attempt.status !== 'conflict') return
    expect(attempt.changedFields).toEqual(['external_id', 'is_pmp_allowed'])
    expect(attempt.server).toMatchObject({ is_pmp_allowed: true, external_id: 'theirs', name: 'Conflict Co' })
    // Nothing was written.
    expect((await services.entities.get(profileId, 'brands', created.id, new AbortController().signal)).name).toBe('Conflict Co')

    // Keep mine: my edit lands on top of their changes.
    const kept = await services.entities.update(profileId, 'brands', created.id, created, { name: 'Conflict Co (mine)' }, true)
    expect(kept).toMatchObject({ status: 'saved', entity: { name: 'Conflict Co (mine)', is_pmp_allowed: true, external_id: 'theirs' } })

    // Take theirs: the form reloads from the server copy and saves cleanly from it.
    await putDirectly(sandbox, 'brands', { ...(kept.status === 'saved' ? kept.entity : created), name: 'Renamed by them' })
    const second = await services.entities.update(
      profileId,
      'brands',
      created.id,
      kept.status === 'saved' ? kept.entity : created,
      { is_open_auction_allowed: false },
      false,
    )
    expect(second.status).toBe('conflict')
    if (second.status !== 'conflict') return
    const fromServer = await services.entities.update(profileId, 'brands', created.id, second.server, { is_open_auction_allowed: false }, false)
    expect(fromServer).toMatchObject({ status: 'saved', entity: { name: 'Renamed by them', is_open_auction_allowed: false } })
    const mirrored = (await services.entities.mirror(profileId, 'brands')).rows.find((row) => row.id === created.id)
    expect(mirrored).toMatchObject({ name: 'Renamed by them', is_open_auction_allowed: false })
  })

  it('explains a 406 with the dependents found in the local lists', async () => {
    await services.entities.sync(profileId, 'publishers', new AbortController().signal)
    const adUnits = (await services.entities.mirror(profileId, 'ad_units')).rows
    const publisherId = adUnits[0]?.publisher
    const attempt = services.entities.delete(profileId, 'publishers', publisherId as number)
    await expect(attempt).rejects.toMatchObject({ code: 'dependents' })
    const error = (await attempt.catch((caught: unknown) => caught)) as {
      message: string
      details: { dependents: Array<{ kind: string; id: number; name: string }> }
    }
    const expected = adUnits.filter((unit) => unit.publisher === publisherId)
    expect(error.details.dependents).toHaveLength(expected.length)
    expect(error.details.dependents[0]).toMatchObject({ kind: 'ad_units', id: expected[0]?.id, name: expected[0]?.name })
    expect(error.message).toMatch(/cannot be deleted because \d+ entit(y depends|ies depend) on it/)
    // Still in the list: nothing was deleted.
    expect((await services.entities.mirror(profileId, 'publishers')).rows.some((row) => row.id === publisherId)).toBe(true)
  })

  it('deletes an entity without dependents and drops it from the mirror', async () => {
    const created = await services.entities.create(profileId, 'bidders', { name: 'Short-lived bidder' })
    await services.entities.delete(profileId, 'bidders', created.id)
    expect((await services.entities.mirror(profileId, 'bidders')).rows.some((row) => row.id === created.id)).toBe(false)
    await expect(services.entities.get(profileId, 'bidders', created.id, new AbortController().signal)).rejects.toMatchObject({ code: 'not_found' })
  })

  it('records each single create, edit and delete in the change log of the connection, a batch of one each', async () => {
    const created = await services.entities.create(profileId, 'bidders', { name: 'Logged bidder' })
    const saved = await services.entities.update(profileId, 'bidders', created.id, created, { name: 'Logged bidder 2' }, false)
    expect(saved.status).toBe('saved')
    await services.entities.delete(profileId, 'bidders', created.id)
    const { records } = await services.changes.list(profileId, { kind: 'bidders', text: 'logged bidder' })
    expect(records.map((record) => [record.source, record.outcome, record.before?.name ?? null, record.after?.name ?? null])).toEqual([
      ['single', 'applied', 'Logged bidder 2', null],
      ['single', 'applied', 'Logged bidder', 'Logged bidder 2'],
      ['single', 'applied', null, 'Logged bidder'],
    ])
    expect(new Set(records.map((record) => record.batch)).size).toBe(3)
    expect(records[2]?.title).toBe(`Create of bidder ${created.id}`)
    // The deleted entity is kept whole, so a revert can create it again.
    const revert = await services.changes.planRevert(profileId, { change: records[0]?.change ?? '' })
    expect(revert.rows).toEqual([expect.objectContaining({ action: 'create', entity: expect.objectContaining({ name: 'Logged bidder 2' }) })])
  })

  it('exports the given rows, in the given order and columns, to csv in the exports folder (no dialog: the web host)', async () => {
    const { rows } = await services.entities.mirror(profileId, 'publishers')
    const chosen = [rows[2], rows[0], rows[1]].map((row) => row?.id as number)
    const folder = dialogFolders(services.userDataDir).exports
    const result = await services.entities.exportCsv(profileId, 'publishers', chosen, [
      { key: 'id', title: 'ID' },
      { key: 'name', title: 'Name' },
    ])
    // Only the base name comes back: no path crosses the bridge.
    expect(result).toEqual({ fileName: 'publishers.csv', rows: 3 })
    const lines = (await fs.readFile(path.join(folder, 'publishers.csv'), 'utf8')).trimEnd().split('\r\n')
    expect(lines[0]).toBe('ID,Name')
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(chosen.map(String))
    // A second export never replaces the first: the folder "dialog" picks a new name.
    expect(await services.entities.exportCsv(profileId, 'publishers', chosen.slice(0, 1), [{ key: 'id', title: 'ID' }])).toEqual({
      fileName: 'publishers (2).csv',
      rows: 1,
    })
    expect((await fs.readFile(path.join(folder, 'publishers.csv'), 'utf8')).trimEnd().split('\r\n')).toHaveLength(4)
  })

  it('refuses a path from the page (bad_input) and writes nothing', async () => {
    const folder = await temporaryFolder()
    const target = path.join(folder, 'planted.csv')
    const handlers = createHandlers(services, { nativeSaveDialog: false })
    const outcome = await dispatch(handlers, 'entities:exportCsv', {
      profileId,
      kind: 'publishers',
      ids: [1],
      columns: [{ key: 'id', title: 'ID' }],
      path: target,
    })
    expect(outcome).toMatchObject({ ok: false, error: { code: 'bad_input' } })
    expect(await fs.readdir(folder)).toEqual([])
  })

  it('forces the .csv extension and never replaces a file the dialog did not show', async () => {
    const folder = await temporaryFolder()
    const answers = [path.join(folder, 'mine'), path.join(folder, 'mine'), null]
    const dialogs = { chooseSavePath: async () => answers.shift() ?? null, chooseOpenPaths: async () => [] }
    const withDialog = await createTestServices({ keychain, userDataDir: services.userDataDir, fileDialogs: dialogs })
    // The user typed "mine": the file is mine.csv.
    expect(await withDialog.entities.exportCsv(profileId, 'publishers', [], [{ key: 'id', title: 'ID' }])).toEqual({ fileName: 'mine.csv', rows: 0 })
    await fs.writeFile(path.join(folder, 'mine.csv'), 'kept\n')
    // "mine" again: mine.csv exists and was never shown in the dialog, so it is refused, not replaced.
    await expect(withDialog.entities.exportCsv(profileId, 'publishers', [], [{ key: 'id', title: 'ID' }])).rejects.toMatchObject({ code: 'conflict' })
    expect(await fs.readFile(path.join(folder, 'mine.csv'), 'utf8')).toBe('kept\n')
    // A cancelled dialog writes nothing.
    expect(await withDialog.entities.exportCsv(profileId, 'publishers', [], [{ key: 'id', title: 'ID' }])).toBeNull()
    expect((await fs.readdir(folder)).sort()).toEqual(['mine.csv'])
  })

  it('writes no cell a spreadsheet would run as a formula, titles included (CSV injection)', async () => {
    const planted = await services.entities.create(profileId, 'publishers', {
      name: '=HYPERLINK("https://evil.example","open")',
      url: 'https://planted.example',
    })
    const result = await services.entities.exportCsv(
      profileId,
      'publishers',
      [planted.id],
      [
        { key: 'id', title: '@ID' },
        { key: 'name', title: '+Name' },
        { key: 'url', title: 'URL' },
      ],
    )
    const file = path.join(dialogFolders(services.userDataDir).exports, result?.fileName ?? '')
    expect(await fs.readFile(file, 'utf8')).toBe(
      `"'@ID","'+Name",URL\r\n${String(planted.id)},"'=HYPERLINK(""https://evil.example"",""open"")",https://planted.example\r\n`,
    )
  })

  it('keeps drafts on disk across a restart until discarded', async () => {
    await services.drafts.save(profileId, { kind: 'brands', key: 'new', draft: { name: 'Half typed' }, original: null })
    await services.drafts.save(profileId, { kind: 'brands', key: 'new', draft: { name: 'Half typed, more' }, original: null })
    const restarted = await createTestServices({ keychain, userDataDir: services.userDataDir })
    expect(await restarted.drafts.list(profileId)).toMatchObject([{ kind: 'brands', key: 'new', draft: { name: 'Half typed, more' } }])
    await restarted.drafts.discard(profileId, 'brands', 'new')
    expect(await restarted.drafts.list(profileId)).toEqual([])
  })

  it("passes the viewer's 403 through as forbidden", async () => {
    const viewerId = (await sandboxProfile(services, sandbox, 'viewer')).id
    await expect(services.entities.create(viewerId, 'brands', { name: 'Nope', is_open_auction_allowed: true, is_pmp_allowed: true })).rejects.toMatchObject({
      code: 'forbidden',
    })
    const mirror = await services.entities.sync(viewerId, 'bidders', new AbortController().signal)
    expect(mirror.count).toBeGreaterThan(0)
  })

  it('hands the mirror over in slices so a long list can paint its first rows at once', async () => {
    const handlers = createHandlers(services, { nativeSaveDialog: false })
    const whole = await dispatch(handlers, 'entities:mirror', { profileId, kind: 'ad_units' })
    const first = await dispatch(handlers, 'entities:mirror', { profileId, kind: 'ad_units', offset: 0, limit: 50 })
    const rest = await dispatch(handlers, 'entities:mirror', { profileId, kind: 'ad_units', offset: 50 })
    if (!whole.ok || !first.ok || !rest.ok) throw new Error('mirror call failed')
    const all = whole.value as { rows: Entity[]; total: number }
    const head = first.value as { rows: Entity[]; total: number }
    const tail = rest.value as { rows: Entity[]; total: number }
    expect(head.rows).toHaveLength(50)
    expect(head.total).toBe(all.rows.length)
    expect([...head.rows, ...tail.rows]).toEqual(all.rows)
  })

  it('cancels a running sync through requests:cancel', async () => {
    const handlers = createHandlers(services, { nativeSaveDialog: false })
    // The platform holds the answer: the sync is certainly still running when it is cancelled,
    // once its first request is seen on the wire.
    sandbox.setFaults({ latency_ms: 60_000 })
    const wire = recordWire()
    try {
      const running = dispatch(handlers, 'entities:sync', { profileId, kind: 'publishers', requestId: 'sync-1' })
      await vi.waitFor(() => expect(wire.count('GET', '/publishers/')).toBeGreaterThan(0), { timeout: 10_000, interval: 10 })
      expect(await dispatch(handlers, 'requests:cancel', { requestId: 'sync-1' })).toEqual({ ok: true, value: null })
      expect(await running).toMatchObject({ ok: false, error: { code: 'cancelled' } })
    } finally {
      wire.stop()
      sandbox.setFaults({ latency_ms: 0 })
    }
  })
})

describe('workspace', () => {
  it('opens the demo workspace, remembers it, and its connection test shows both APIs ok', async () => {
    const services = await createTestServices()
    try {
      expect(await services.workspace.state()).toEqual({ activeProfileId: null, demoRunning: false })
      const demo = await services.workspace.activate('demo')
      expect(demo).toMatchObject({ id: 'demo', isDemo: true, name: 'Demo workspace', defaultProject: 'demo', defaultSlicer: 'supply' })
      expect(demo.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/workflow\/v1$/)
      const test = await services.workspace.test('demo', new AbortController().signal)
      expect(test.workflow).toMatchObject({ ok: true })
      expect(test.reporting).toMatchObject({ ok: true })
      if (test.workflow.ok) expect(typeof test.workflow.latencyMs).toBe('number')
      // Remembered: the next start reopens it.
      const restarted = await createTestServices({ userDataDir: services.userDataDir })
      expect((await restarted.workspace.state()).activeProfileId).toBe('demo')
      await restarted.close()
    } finally {
      await services.close()
    }
  })

  it("reports each API's failure as a sentence when the connection is wrong", async () => {
    const services = await createTestServices()
    const sandbox = await startSandbox({ port: 0 })
    try {
      const profile = await services.profiles.create({
        name: 'Wrong password',
        baseUrl: sandbox.info.base_url,
        authUrl: sandbox.info.auth_url,
        reportUrl: sandbox.info.report_url,
        serviceId: 'demo',
        defaultProject: 'demo',
        defaultSlicer: 'supply',
        auth: { method: 'password', username: 'demo', password: 'wrong' },
      })
      const test = await services.workspace.test(profile.id, new AbortController().signal)
      expect(test.workflow).toMatchObject({ ok: false, error: { code: 'auth' } })
      expect(test.reporting).toMatchObject({ ok: false })
      const unreachable = await services.profiles.create({
        name: 'Nobody home',
        baseUrl: 'http://127.0.0.1:9/workflow/v1',
        authUrl: 'http://127.0.0.1:9/auth',
        reportUrl: 'http://127.0.0.1:9/report',
        serviceId: 'demo',
        auth: { method: 'token', token: 'x' },
      })
      const offline = await services.workspace.test(unreachable.id, new AbortController().signal)
      expect(offline.workflow).toMatchObject({ ok: false, error: { code: 'network' } })
      expect(offline.reporting).toMatchObject({ ok: null })
    } finally {
      await services.close()
      await sandbox.close()
    }
  })
})
