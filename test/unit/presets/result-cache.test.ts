import { promises as fs } from 'node:fs'
import { singleSeriesChart } from '../../support/chart-results'
import path from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import type { Notice, ReportDefinition, TimeSeriesView } from '@contract'
import { createRunHistoryStore } from '../../../main/services/run-history/run-history-store'
import { createResultCache, type ResultCache } from '../../../main/services/results/result-cache'
import { definitionHash, resultKey } from '../../../main/services/results/result-key'
import { sampleDefinition } from '../../support/channel-samples'
import { readKeptFile, writeKeptFile } from '../../support/kept-files'
import { temporaryFolder } from '../../support/services'

let folder: string
let limit: number
let clock: number
let notices: Notice[]
const now = () => new Date(Date.UTC(2026, 0, 5, 9, 0, 0, clock++))
const collect = { add: (notice: Omit<Notice, 'id'>) => (notices.push({ id: '', ...notice }), { id: '', ...notice }) }
const open = (): ResultCache => createResultCache({ folder, limitBytes: async () => limit, notices: collect, now })

/** A chart result of a given size: `points` values in one series. */
function chart(points: number, ranAt = '2026-01-05T08:00:00.000Z'): TimeSeriesView {
  return singleSeriesChart({ values: Array.from({ length: points }, (_, index) => index * 1.5), ranAt, timezone: 1, durationMs: 12 })
}

const definitionFor = (project: string): ReportDefinition => ({ ...sampleDefinition, project })
const request = { operation: 'time_series' as const, body: { project_name: 'demo', slicer_name: 'supply' } }

beforeEach(async () => {
  folder = path.join(await temporaryFolder('adops-results-'), 'results')
  limit = 200 * 1024 * 1024
  clock = 0
  notices = []
})

describe('the result cache', () => {
  it("keeps the last result per connection and definition, the preset's own before an ad hoc one", async () => {
    const cache = open()
    await cache.put({ profileId: 'p1', preset: null, definition: definitionFor('a'), requests: [request], kind: 'chart', result: chart(3, 'ad hoc') })
    // Same data, another look: found by the same key.
    const looksDifferent = { ...definitionFor('a'), chart: { type: 'bar' as const, hidden: [], showMarkers: false } }
    expect(await cache.get('p1', 'chart', looksDifferent, null)).toMatchObject({ kind: 'chart', preset: null, ranAt: 'ad hoc' })
    // A preset without its own result shows the ad hoc one of the same definition; then its own.
    expect(await cache.get('p1', 'chart', definitionFor('a'), 'Weekly')).toMatchObject({ ranAt: 'ad hoc' })
    await cache.put({ profileId: 'p1', preset: 'Weekly', definition: definitionFor('a'), requests: [request], kind: 'chart', result: chart(3, 'preset') })
    expect(await open().get('p1', 'chart', definitionFor('a'), 'WEEKLY')).toMatchObject({ preset: 'Weekly', ranAt: 'preset' })
    expect(await cache.get('p2', 'chart', definitionFor('a'), null)).toBeNull()
    expect(await cache.get('p1', 'audience', definitionFor('a'), null)).toBeNull()
    expect(await cache.get('p1', 'chart', definitionFor('b'), null)).toBeNull()
  })

  it('evicts the least recently used results when over the size limit', async () => {
    const cache = open()
    const put = (project: string) =>
      cache.put({ profileId: 'p1', preset: null, definition: definitionFor(project), requests: [request], kind: 'chart', result: chart(1_000) })
    await put('a')
    const one = (await cache.usage()).bytes
    limit = Math.floor(one * 3.5)
    await put('b')
    await put('c')
    // Reading "a" makes it recently used: "b" is now the oldest.
    expect(await cache.get('p1', 'chart', definitionFor('a'), null)).not.toBeNull()
    await put('d')
    expect(await cache.get('p1', 'chart', definitionFor('b'), null)).toBeNull()
    for (const kept of ['a', 'c', 'd']) expect(await cache.get('p1', 'chart', definitionFor(kept), null), kept).not.toBeNull()
    const usage = await cache.usage()
    expect(usage.entries).toBe(3)
    expect(usage.bytes).toBeLessThanOrEqual(limit)
    const files = await fs.readdir(path.join(folder, 'p1'))
    expect(files.sort()).toEqual(['a', 'c', 'd'].map((project) => `${resultKey('chart', definitionFor(project), null)}.kept`).sort())

    // A new instance (the next start) keeps the order of use from the index, written at close.
    await cache.close()
    const reopened = open()
    await reopened.get('p1', 'chart', definitionFor('c'), null)
    await reopened.put({ profileId: 'p1', preset: null, definition: definitionFor('e'), requests: [request], kind: 'chart', result: chart(1_000) })
    expect(await reopened.get('p1', 'chart', definitionFor('a'), null)).toBeNull()
    expect(await reopened.get('p1', 'chart', definitionFor('c'), null)).not.toBeNull()
  })

  it('does not keep a result bigger than the whole cache', async () => {
    limit = 1_000
    const cache = open()
    await cache.put({ profileId: 'p1', preset: null, definition: definitionFor('a'), requests: [], kind: 'chart', result: chart(1_000) })
    expect(await cache.usage()).toEqual({ bytes: 0, entries: 0 })
  })

  it('rebuilds a lost index from the files, and forgets a profile with its files', async () => {
    const cache = open()
    await cache.put({ profileId: 'p1', preset: null, definition: definitionFor('a'), requests: [], kind: 'chart', result: chart(10) })
    await cache.put({ profileId: 'p2', preset: null, definition: definitionFor('a'), requests: [], kind: 'chart', result: chart(10) })
    await fs.writeFile(path.join(folder, 'index.json'), 'garbage')
    const reopened = open()
    expect((await reopened.usage()).entries).toBe(2)
    expect(notices.map((notice) => notice.level)).toEqual(['info'])
    await reopened.removeProfile('p1')
    expect(await reopened.get('p1', 'chart', definitionFor('a'), null)).toBeNull()
    expect(await reopened.get('p2', 'chart', definitionFor('a'), null)).not.toBeNull()
    expect((await fs.readdir(folder)).sort().filter((name) => !name.startsWith('index.json'))).toEqual(['p2'])
  })

  const keptFile = (project: string) => path.join(folder, 'p1', `${resultKey('chart', definitionFor(project), null)}.kept`)
  const putChart = (cache: ResultCache, points = 10) =>
    cache.put({ profileId: 'p1', preset: null, definition: definitionFor('a'), requests: [], kind: 'chart', result: chart(points) })

  it('keeps the values after a one-line JSON header, gaps and all, and reads them back as they were', async () => {
    const cache = open()
    const result = { ...chart(4), series: chart(4).series.map((series) => ({ ...series, values: [1.25, null, -3e12, 0] })) }
    await cache.put({ profileId: 'p1', preset: null, definition: definitionFor('a'), requests: [request], kind: 'chart', result })
    const text = (await fs.readFile(keptFile('a'))).toString('latin1')
    expect(text.split('\n')[0]).toBe('AdOps Desk kept result')
    expect(JSON.parse(text.split('\n')[1] ?? '')).toMatchObject({ version: 2, kind: 'chart', requests: [request], valueCounts: [4] })
    expect((await cache.get('p1', 'chart', definitionFor('a'), null))?.result).toEqual(result)
  })

  it('a damaged result file is moved aside, reported, and counts as no result', async () => {
    const cache = open()
    await putChart(cache)
    await fs.writeFile(keptFile('a'), '{"version":1')
    expect(await cache.get('p1', 'chart', definitionFor('a'), null)).toBeNull()
    expect(notices).toHaveLength(1)
    expect(notices[0]?.message).toMatch(/^A saved report result could not be read because it is not a kept result file\. It was moved aside/)
    // Moved aside as it was, for the user to look at: nothing is deleted.
    expect(await fs.readFile(notices[0]?.details?.movedTo as string, 'utf8')).toBe('{"version":1')
    expect((await cache.usage()).entries).toBe(0)
  })

  it('temps of killed writes go at the start; results moved aside count against the limit and go first, oldest first', async () => {
    const cache = open()
    await putChart(cache, 1_000)
    const one = (await cache.usage()).bytes
    const p1 = path.join(folder, 'p1')
    const keyOf = (project: string) => resultKey('chart', definitionFor(project), null)
    const leave = async (name: string, bytes: number, changed: string) => {
      await fs.writeFile(path.join(p1, name), Buffer.alloc(bytes))
      await fs.utimes(path.join(p1, name), new Date(changed), new Date(changed))
    }
    // The cache's clock reads 2026-01-05 09:00: a temp from the day before is stale, one from 08:45 may be in flight.
    await leave(`.${keyOf('b')}.kept.0123456789ab.tmp`, one, '2026-01-04T09:00:00Z')
    await leave(`.${keyOf('c')}.kept.ba9876543210.tmp`, 10, '2026-01-05T08:45:00Z')
    await leave(`${keyOf('x')}.kept.corrupt-2026-01-01T00-00-00-000Z`, one, '2026-01-01T00:00:00Z')
    await leave(`${keyOf('y')}.kept.corrupt-2026-01-04T00-00-00-000Z`, one, '2026-01-04T00:00:00Z')

    const reopened = open()
    expect(await reopened.usage()).toEqual({ bytes: 3 * one, entries: 1 })
    expect(await fs.readdir(p1)).not.toContain(`.${keyOf('b')}.kept.0123456789ab.tmp`)
    expect(await fs.readdir(p1)).toContain(`.${keyOf('c')}.kept.ba9876543210.tmp`)

    // A second result makes four: the oldest file moved aside goes, both results stay.
    limit = Math.floor(one * 3.5)
    await reopened.put({ profileId: 'p1', preset: null, definition: definitionFor('d'), requests: [], kind: 'chart', result: chart(1_000) })
    const names = await fs.readdir(p1)
    expect(names).not.toContain(`${keyOf('x')}.kept.corrupt-2026-01-01T00-00-00-000Z`)
    expect(names).toContain(`${keyOf('y')}.kept.corrupt-2026-01-04T00-00-00-000Z`)
    expect(await reopened.usage()).toEqual({ bytes: 3 * one, entries: 2 })

    // One moved aside while running counts at once.
    await fs.writeFile(keptFile('a'), '{"version":1')
    expect(await reopened.get('p1', 'chart', definitionFor('a'), null)).toBeNull()
    expect(await reopened.usage()).toEqual({ bytes: 2 * one + '{"version":1'.length, entries: 1 })
  })

  it('a kept chart cut short, or holding an infinite value, is not shown', async () => {
    const cache = open()
    await putChart(cache)
    const whole = await fs.readFile(keptFile('a'))
    await fs.writeFile(keptFile('a'), whole.subarray(0, whole.length - 8))
    expect(await cache.get('p1', 'chart', definitionFor('a'), null)).toBeNull()
    expect(notices[0]?.message).toMatch(/because its values do not match the counts in its header/)

    await putChart(cache)
    const document = await readKeptFile(keptFile('a'))
    const series = document.result.series ?? []
    await writeKeptFile(keptFile('a'), {
      ...document,
      result: { ...document.result, series: series.map((entry) => ({ ...entry, values: [Number.POSITIVE_INFINITY] })) },
    })
    // One value for a count of one is whole; it is the value that is wrong.
    const header = await readKeptFile(keptFile('a')).catch((error: Error) => error.message)
    expect(header).toMatch(/not a finite number/)
    expect(await cache.get('p1', 'chart', definitionFor('a'), null)).toBeNull()
    expect(notices[1]?.message).toMatch(/because it holds a value that is not a finite number/)
  })

  it('a kept chart whose categories are not texts is not shown', async () => {
    const cache = open()
    await putChart(cache)
    const document = await readKeptFile(keptFile('a'))
    await writeKeptFile(keptFile('a'), {
      ...document,
      result: { ...document.result, series: document.result.series as Array<{ values: Array<number | null> }>, categories: [7] },
    })
    expect(await cache.get('p1', 'chart', definitionFor('a'), null)).toBeNull()
    expect(notices[0]?.message).toMatch(/at result\.categories: Expected a list of texts/)
  })

  it('a kept result from a newer version is left alone and said so', async () => {
    const cache = open()
    await putChart(cache)
    const document = await readKeptFile(keptFile('a'))
    await writeKeptFile(keptFile('a'), { ...document, version: 3, result: document.result as { series: Array<{ values: Array<number | null> }> } })
    expect(await cache.get('p1', 'chart', definitionFor('a'), null)).toBeNull()
    expect(notices[0]?.message).toMatch(/because it was saved by a newer version of AdOps Desk \(format 3; this version reads up to 2\)/)
  })

  it('reads a result the first versions kept as one JSON file, and replaces that file when the report is kept again', async () => {
    const cache = open()
    const result = chart(3)
    await putChart(cache)
    const document = await readKeptFile(keptFile('a'))
    const legacy = keptFile('a').replace(/\.kept$/, '.json')
    await fs.writeFile(legacy, JSON.stringify({ ...document, version: 1, result }))
    await fs.rm(keptFile('a'))
    const reopened = open()
    expect((await reopened.get('p1', 'chart', definitionFor('a'), null))?.result).toEqual(result)
    expect((await reopened.usage()).entries).toBe(1)
    // Its values not numbers: moved aside as before.
    await fs.writeFile(
      legacy,
      JSON.stringify({ ...document, version: 1, result: { ...result, series: result.series.map((entry) => ({ ...entry, values: ['0'] })) } }),
    )
    expect(await reopened.get('p1', 'chart', definitionFor('a'), null)).toBeNull()
    expect(notices[0]?.message).toMatch(/at result\.series\.0\.values: Expected numbers or null/)
    await fs.writeFile(legacy, JSON.stringify({ ...document, version: 1, result }))
    await putChart(reopened)
    expect((await fs.readdir(path.join(folder, 'p1'))).filter((name) => /^[0-9a-f]{40}\.(json|kept)$/.test(name))).toEqual([path.basename(keptFile('a'))])
  })

  it('hashes definitions whatever their key order', () => {
    const shuffled = Object.fromEntries(Object.entries(sampleDefinition).reverse()) as ReportDefinition
    expect(definitionHash(shuffled)).toBe(definitionHash(sampleDefinition))
    expect(definitionHash({ ...sampleDefinition, dates: { start: '-8d', end: 'yesterday' } })).not.toBe(definitionHash(sampleDefinition))
  })
})

describe('the run history', () => {
  const entry = (preset: string | null, outcome: 'ok' | 'error' | 'cancelled', extra: { project?: string; error?: string; profileId?: string } = {}) => ({
    ranAt: now().toISOString(),
    profileId: extra.profileId ?? 'p1',
    connection: 'Production EU',
    preset,
    kind: 'chart' as const,
    project: extra.project ?? 'demo',
    report: 'supply',
    dates: { start: '-7d', end: 'yesterday' },
    range: outcome === 'ok' ? { start: '2026-01-01', end: '2026-01-07', timezone: 1 } : null,
    durationMs: 40,
    rows: outcome === 'ok' ? 7 : null,
    points: outcome === 'ok' ? 70 : null,
    outcome,
    error: outcome === 'ok' ? null : (extra.error ?? 'Cancelled.'),
  })

  it('persists across a restart, newest first, searchable and filtered by preset and outcome', async () => {
    const historyDir = path.join(path.dirname(folder), 'history')
    let ids = 0
    const first = createRunHistoryStore({ folder: historyDir, notices: collect, newId: () => `run-${++ids}` })
    await first.add(entry('Weekly EU', 'ok'), definitionFor('demo'))
    await first.add(entry(null, 'error', { error: 'The platform answered bad_request: unknown field imps.' }), definitionFor('demo'))
    await first.add(entry('weekly eu', 'cancelled'), definitionFor('other'))
    await first.add(entry(null, 'ok', { project: 'bidswitch', profileId: 'p2' }), definitionFor('bidswitch'))

    const second = createRunHistoryStore({ folder: historyDir, notices: collect })
    const all = await second.list({})
    expect(all.total).toBe(4)
    expect(all.entries.map((run) => run.id)).toEqual(['run-4', 'run-3', 'run-2', 'run-1'])
    expect((await second.list({ preset: 'WEEKLY EU' })).entries.map((run) => run.id)).toEqual(['run-3', 'run-1'])
    expect((await second.list({ preset: null })).entries.map((run) => run.id)).toEqual(['run-4', 'run-2'])
    expect((await second.list({ outcome: 'error' })).entries.map((run) => run.id)).toEqual(['run-2'])
    expect((await second.list({ search: 'bad_request IMPS' })).entries.map((run) => run.id)).toEqual(['run-2'])
    expect((await second.list({ search: 'bidswitch' })).entries.map((run) => run.id)).toEqual(['run-4'])
    expect((await second.list({ profileId: 'p2' })).total).toBe(1)
    expect((await second.list({ offset: 1, limit: 2 })).entries.map((run) => run.id)).toEqual(['run-3', 'run-2'])
    const opened = await second.get('run-3')
    expect(opened.definition).toEqual(definitionFor('other'))
    expect(opened).toMatchObject({ preset: 'weekly eu', outcome: 'cancelled', error: 'Cancelled.' })
    expect(Object.keys(opened)).not.toContain('definitionHash')
  })

  it('keeps the last N runs and drops the definitions no kept run uses', async () => {
    const historyDir = path.join(path.dirname(folder), 'history')
    let ids = 0
    const store = createRunHistoryStore({ folder: historyDir, notices: collect, limit: 3, newId: () => `run-${++ids}` })
    for (const project of ['a', 'b', 'b', 'c', 'd']) await store.add(entry(null, 'ok', { project }), definitionFor(project))
    expect((await store.list({})).entries.map((run) => run.project)).toEqual(['d', 'c', 'b'])
    await expect(store.get('run-1')).rejects.toMatchObject({ code: 'not_found' })
    const kept = JSON.parse(await fs.readFile(path.join(historyDir, 'definitions.json'), 'utf8')) as { byHash: Record<string, ReportDefinition> }
    expect(
      Object.values(kept.byHash)
        .map((definition) => definition.project)
        .sort(),
    ).toEqual(['b', 'c', 'd'])
  })
})
