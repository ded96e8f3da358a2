/**
 * Issue 38 item 6 (review M4, M5): no store may write what its own reader refuses. A value the
 * schema rejects is refused with a sentence before anything is written, and the file on disk (and
 * what the store hands out) stays as it was, so the next reader never moves a whole file aside.
 */
import { promises as fs } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { LedgerEntry, ReportDefinition } from '@contract'
import type { ChangeRecord } from '../../../main/services/bulk/apply-types'
import { createChangeLog } from '../../../main/services/changes/change-log'
import { createFiredStore, type KeptAlert } from '../../../main/services/alerts/fired-store'
import { createBoardStore } from '../../../main/services/boards/board-store'
import { createDocumentStore, createKeyedDocumentStore } from '../../../main/services/files/document-store'
import { createNotices } from '../../../main/services/notices'
import { createPresetStore } from '../../../main/services/presets/preset-store'
import { createResultCache, type CachedRun } from '../../../main/services/results/result-cache'
import { createLedger } from '../../../main/services/schedules/ledger'
import { createSecretIndex, SECRET_INDEX_FILE_NAME } from '../../../main/services/secrets/secret-index'
import { sampleBoard, sampleDefinition } from '../../support/channel-samples'
import { singleSeriesChart } from '../../support/chart-results'
import { caught } from '../../integration/clients/support/outcomes'
import { temporaryFolder } from '../../support/services'

const countsSchema = z.object({ version: z.literal(1), counts: z.array(z.int()) })
type Counts = z.infer<typeof countsSchema>

function expectRefusal(error: Error & { code?: string }): void {
  expect(error.code).toBe('storage')
  expect(error.message).toMatch(/was not saved because .*would not be able to read it back\. What was saved before is kept as it was/)
}

describe('the document store checks a document against its schema before writing it', () => {
  it('refuses a write and an update its schema rejects, and leaves the file and the cache as they were', async () => {
    const folder = await temporaryFolder()
    const filePath = path.join(folder, 'counts.json')
    const corrupt: unknown[] = []
    const options = { filePath, schema: countsSchema, fallback: { version: 1, counts: [] } as Counts, onCorrupt: (found: unknown) => corrupt.push(found) }
    const store = createDocumentStore(options)
    await store.write({ version: 1, counts: [1, 2] })
    const before = await fs.readFile(filePath, 'utf8')

    expectRefusal(await caught(store.write({ version: 1, counts: [1, 0.6] })))
    expectRefusal(await caught(store.update((current) => ({ ...current, counts: [...current.counts, Number.NEGATIVE_INFINITY] }))))

    expect(await fs.readFile(filePath, 'utf8')).toBe(before)
    expect(await store.read()).toEqual({ version: 1, counts: [1, 2] })
    // The next change that is valid goes through, from the document as it was.
    expect(await store.update((current) => ({ ...current, counts: [...current.counts, 3] }))).toEqual({ version: 1, counts: [1, 2, 3] })
    expect(await createDocumentStore(options).read()).toEqual({ version: 1, counts: [1, 2, 3] })
    expect(corrupt).toEqual([])
    expect((await fs.readdir(folder)).sort()).toEqual(['counts.json'])
  })

  it('a keyed store refuses the same way, for that key only', async () => {
    const folder = await temporaryFolder()
    const store = createKeyedDocumentStore<typeof countsSchema, readonly [name: string]>({
      folder,
      schema: countsSchema,
      fallback: () => ({ version: 1, counts: [] }),
      onCorrupt: () => undefined,
    })
    await store.write(['kept'], { version: 1, counts: [7] })
    expectRefusal(await caught(store.write(['kept'], { version: 1, counts: [Number.NaN] })))
    expectRefusal(await caught(store.write(['new'], { version: 1, counts: [1e400] })))
    expect(await store.keys()).toEqual([['kept']])
    expect(JSON.parse(await fs.readFile(path.join(folder, 'kept.json'), 'utf8'))).toEqual({ version: 1, counts: [7] })
  })
})

function keptAlert(id: string, changePct: number): KeptAlert {
  return {
    id,
    preset: 'Monday revenue',
    rule: 'rule-1',
    series: 'Total',
    bucket: '2026-11-25',
    value: 10,
    baseline: 100,
    changePct,
    z: -5,
    metric: 'impressions',
    direction: 'drop',
    firedAt: '2026-11-26T06:00:00.000Z',
    dataAsOf: '2026-11-26T02:00:00.000Z',
    snoozedUntil: null,
    incident: `incident-${id}`,
    acknowledged: false,
    granularity: 'granularity_day',
    categories: ['2026-11-25'],
    line: { key: 'impressions|Total', label: 'Total', role: 'total', values: [10], baseline: [100], low: [50], high: [150], fired: [true], firedCount: 1 },
    firedIndex: 0,
  }
}

describe('the fired alerts', () => {
  it('refuses an alert holding -Infinity, and the alerts fired before stay readable after a restart', async () => {
    const folder = await temporaryFolder()
    const notices = createNotices()
    const options = { folder, notices, now: () => new Date('2026-11-26T06:00:00.000Z') }
    const fired = createFiredStore(options)
    await fired.add([keptAlert('older', -90)])

    expectRefusal(await caught(fired.add([keptAlert('overflow', Number.NEGATIVE_INFINITY)])))

    const restarted = createFiredStore(options)
    expect((await restarted.list({})).alerts.map((alert) => alert.id)).toEqual(['older'])
    expect(notices.list()).toEqual([])
  })
})

/** A definition its schema refuses, as a hand-made or hostile one would be: the granularity is a number. */
const refusedDefinition = { ...sampleDefinition, granularity: 42 } as unknown as ReportDefinition

/** Every file in a folder and its text. */
async function snapshot(folder: string): Promise<Record<string, string>> {
  const names = (await fs.readdir(folder)).sort()
  return Object.fromEntries(await Promise.all(names.map(async (name) => [name, await fs.readFile(path.join(folder, name), 'utf8')] as const)))
}

describe('the preset files', () => {
  it('refuse a definition the preset schema rejects with a sentence, and the preset on disk stays as it was', async () => {
    const folder = await temporaryFolder()
    const notices = createNotices()
    const presets = createPresetStore({ folder, notices })
    await presets.save({ name: 'Weekly EU', definition: sampleDefinition }, false)
    const before = await snapshot(folder)

    const error = await caught(presets.save({ name: 'Weekly EU', definition: refusedDefinition }, true))
    expectRefusal(error)
    expect(error.message).toMatch(/^The preset “Weekly EU” was not saved because its content is not a preset: definition\.granularity/)
    expect(await snapshot(folder)).toEqual(before)
    expect((await createPresetStore({ folder, notices }).get('Weekly EU')).definition).toEqual(sampleDefinition)
    expect(notices.list()).toEqual([])
  })
})

describe('the board files', () => {
  it('refuse a board whose inline tile the schema rejects, and the board on disk stays as it was', async () => {
    const folder = await temporaryFolder()
    const notices = createNotices()
    const boards = createBoardStore({ folder, notices })
    const saved = await boards.save(sampleBoard, false)
    const before = await snapshot(folder)
    const hostile = {
      ...sampleBoard,
      tiles: sampleBoard.tiles.map((tile) =>
        tile.source.kind === 'definition' ? { ...tile, source: { kind: 'definition' as const, definition: refusedDefinition } } : tile,
      ),
    }

    const error = await caught(boards.save(hostile, true))
    expectRefusal(error)
    expect(error.message).toMatch(/^The board “Monday board” was not saved because its content is not a board/)
    expect(await snapshot(folder)).toEqual(before)
    expect(await createBoardStore({ folder, notices }).get('Monday board')).toEqual(saved)
    expect(notices.list()).toEqual([])
  })
})

describe('the kept results', () => {
  it('refuse a chart holding an infinite value, and the result kept before for the same definition is still found', async () => {
    const folder = path.join(await temporaryFolder(), 'results')
    const notices = createNotices()
    const open = () => createResultCache({ folder, limitBytes: async () => 10 * 1024 * 1024, notices })
    const request = { operation: 'time_series' as const, body: { project_name: 'demo', slicer_name: 'supply' } }
    const run = (values: number[], ranAt: string): CachedRun => ({
      profileId: 'p1',
      preset: 'Weekly EU',
      definition: sampleDefinition,
      requests: [request],
      kind: 'chart',
      result: singleSeriesChart({ values, ranAt, timezone: 0, durationMs: 5 }),
    })
    const cache = open()
    await cache.put(run([1, 2, 3], 'first'))

    expectRefusal(await caught(cache.put(run([1, Number.POSITIVE_INFINITY, 3], 'overflow'))))

    expect(await open().get('p1', 'chart', sampleDefinition, 'Weekly EU')).toMatchObject({ ranAt: 'first' })
    expect(notices.list()).toEqual([])
  })
})

const ledgerLine = (id: string, change: Partial<LedgerEntry> = {}): LedgerEntry => ({
  id,
  scheduleId: 'schedule-1',
  scheduleName: 'Morning file',
  target: { kind: 'preset', name: 'Monday revenue' },
  source: 'os',
  trigger: 'schedule',
  plannedAt: '2026-11-26T07:00:00.000Z',
  startedAt: '2026-11-26T07:00:01.000Z',
  durationMs: 1200,
  outcome: 'ok',
  late: false,
  fileName: 'Monday revenue.csv',
  alertsFired: null,
  missingTiles: null,
  error: null,
  attempts: 1,
  ...change,
})

describe('the run ledger', () => {
  it('refuses a line its reader would skip (a duration JSON writes as null), and the lines before stay', async () => {
    const folder = await temporaryFolder()
    const ledger = createLedger({ folder })
    await ledger.append(ledgerLine('run-1'))
    const before = await snapshot(folder)

    expectRefusal(await caught(ledger.append(ledgerLine('run-2', { durationMs: Number.POSITIVE_INFINITY }))))

    expect(await snapshot(folder)).toEqual(before)
    expect((await createLedger({ folder }).all()).map((entry) => entry.id)).toEqual(['run-1'])
  })
})

const changeRecord = (change: string, extra: Partial<ChangeRecord> = {}): ChangeRecord => ({
  change,
  batch: 'batch-1',
  source: 'import',
  title: 'Import of brands.csv',
  at: '2026-11-26T07:00:00.000Z',
  profileId: 'demo',
  kind: 'brand',
  id: 7,
  before: { id: 7, name: 'Old' },
  after: { id: 7, name: 'New' },
  outcome: 'applied',
  ...extra,
})

describe('the change log', () => {
  it('refuses a batch holding a record its reader would drop, appends none of it, and the records before stay', async () => {
    const folder = await temporaryFolder()
    const log = createChangeLog({ folder })
    await log.record([changeRecord('change-1')])
    const hostile = { ...changeRecord('change-3'), at: 1_764_140_400_000 } as unknown as ChangeRecord

    expectRefusal(await caught(log.record([changeRecord('change-2'), hostile])))
    await log.close()

    const reopened = createChangeLog({ folder })
    expect((await reopened.list('demo', {})).records.map((record) => record.change)).toEqual(['change-1'])
    await reopened.close()
  })
})

describe('the keychain index', () => {
  it('refuses an entry that is not true or false, and the index on disk stays as it was', async () => {
    const folder = await temporaryFolder()
    const index = createSecretIndex(folder)
    await index.record('adops-desk', 'demo', true)
    const before = await fs.readFile(path.join(folder, SECRET_INDEX_FILE_NAME), 'utf8')

    expectRefusal(await caught(index.record('adops-desk', 'other', 'yes' as unknown as boolean)))

    expect(await fs.readFile(path.join(folder, SECRET_INDEX_FILE_NAME), 'utf8')).toBe(before)
    expect(await createSecretIndex(folder).lookup('adops-desk', 'demo')).toBe(true)
  })
})
