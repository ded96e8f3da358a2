import { promises as fs } from 'node:fs'
import path from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import type { Notice, ReportDefinition } from '@contract'
import { createResultCache, type ResultCache } from '../../../main/services/results/result-cache'
import { sampleDefinition } from '../../support/channel-samples'
import { singleSeriesChart } from '../../support/chart-results'
import { temporaryFolder } from '../../support/services'

/**
 * A read marks its result as used in memory; the order of use reaches index.json with the next
 * change of the index, once a while after the first unwritten use, or at close (result-cache.ts, `uses`).
 */
let folder: string
let limit: number
let clock: number
let scheduled: Array<{ persist: () => void; cancelled: boolean }>
const notices: Notice[] = []
const collect = { add: (notice: Omit<Notice, 'id'>) => (notices.push({ id: '', ...notice }), { id: '', ...notice }) }
const now = () => new Date(Date.UTC(2026, 0, 5, 9, 0, 0, clock++))
/** The persist a read asked for runs only when the test says so. */
function schedulePersist(persist: () => void): () => void {
  const entry = { persist, cancelled: false }
  scheduled.push(entry)
  return () => (entry.cancelled = true)
}
const open = (): ResultCache => createResultCache({ folder, limitBytes: async () => limit, notices: collect, now, schedulePersist })
const definitionFor = (project: string): ReportDefinition => ({ ...sampleDefinition, project })
const put = (cache: ResultCache, project: string) =>
  cache.put({
    profileId: 'p1',
    preset: null,
    definition: definitionFor(project),
    requests: [],
    kind: 'chart',
    result: singleSeriesChart({ values: Array.from({ length: 1_000 }, (_, index) => index), ranAt: '2026-01-05T08:00:00.000Z', timezone: 1, durationMs: 1 }),
  })
const get = (cache: ResultCache, project: string) => cache.get('p1', 'chart', definitionFor(project), null)
const indexFile = () => path.join(folder, 'index.json')
/** The index file as written last: an atomic write renames a new file over it, so its inode changes with every write. */
const indexWrite = async () => {
  const stat = await fs.stat(indexFile())
  return `${stat.ino}:${stat.mtimeMs}:${await fs.readFile(indexFile(), 'utf8')}`
}
const usedAtOnDisk = async (): Promise<string[]> =>
  (JSON.parse(await fs.readFile(indexFile(), 'utf8')) as { entries: Array<{ usedAt: string }> }).entries.map((entry) => entry.usedAt)

beforeEach(async () => {
  folder = path.join(await temporaryFolder('adops-result-uses-'), 'results')
  limit = 200 * 1024 * 1024
  clock = 0
  scheduled = []
})

describe('the result cache’s order of use', () => {
  it('costs no index write per read: many reads are written once, later, together', async () => {
    const cache = open()
    for (const project of ['a', 'b', 'c']) await put(cache, project)
    const before = await indexWrite()
    const usedBefore = await usedAtOnDisk()
    for (let round = 0; round < 20; round++) for (const project of ['a', 'b', 'c']) expect(await get(cache, project)).not.toBeNull()
    expect(await indexWrite()).toBe(before)
    // Sixty reads asked for one write, not sixty.
    expect(scheduled).toHaveLength(1)
    scheduled[0]?.persist()
    await cache.usage()
    expect(await indexWrite()).not.toBe(before)
    const usedAfter = await usedAtOnDisk()
    usedAfter.forEach((usedAt, index) => expect(usedAt > (usedBefore[index] ?? '')).toBe(true))
    // Written: nothing more to write until the next read.
    const written = await indexWrite()
    await cache.close()
    expect(await indexWrite()).toBe(written)
  })

  it('writes the uses with the next change of the index, and calls off the write it had planned', async () => {
    const cache = open()
    for (const project of ['a', 'b']) await put(cache, project)
    await get(cache, 'a')
    await put(cache, 'c')
    expect(scheduled[0]?.cancelled).toBe(true)
    const used = await usedAtOnDisk()
    // "a" was read after "b" was written.
    expect((used[0] ?? '') > (used[1] ?? '')).toBe(true)
  })

  it('keeps the order across a restart once closed, and evicts the least recently used', async () => {
    const cache = open()
    await put(cache, 'a')
    const one = (await cache.usage()).bytes
    limit = Math.floor(one * 3.5)
    await put(cache, 'b')
    await put(cache, 'c')
    // "a" read last: "b" is the least recently used, though only memory knows it yet.
    await get(cache, 'a')
    await cache.close()
    expect(scheduled[0]?.cancelled).toBe(true)

    const reopened = open()
    await put(reopened, 'd')
    expect(await get(reopened, 'b')).toBeNull()
    for (const project of ['a', 'c', 'd']) expect(await get(reopened, project), project).not.toBeNull()
  })

  it('a use lost to a crash only leaves the order as it was written', async () => {
    const cache = open()
    await put(cache, 'a')
    limit = Math.floor((await cache.usage()).bytes * 2.5)
    await put(cache, 'b')
    await get(cache, 'a')
    // No close: the process died. The next start sees "a" as older than "b" and lets it go first.
    const reopened = open()
    await put(reopened, 'c')
    expect(await get(reopened, 'a')).toBeNull()
    expect(await get(reopened, 'b')).not.toBeNull()
    expect(notices).toEqual([])
  })
})
