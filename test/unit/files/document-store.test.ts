import { promises as fs } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { AtomicFs } from '../../../main/services/files/atomic'
import {
  createDocumentStore,
  createKeyedDocumentStore,
  noticeOnCorrupt,
  type CorruptFile,
  type DocumentStoreOptions,
} from '../../../main/services/files/document-store'
import type { OlderDocument } from '../../../main/services/files/json-file'
import { createNotices } from '../../../main/services/notices'
import { temporaryFolder } from '../../support/services'

const listSchema = z.object({ version: z.literal(1), items: z.array(z.string()) })
type List = z.infer<typeof listSchema>
const empty: List = { version: 1, items: [] }
const fixedNow = () => new Date('2026-11-21T10:20:30.456Z')

async function listStore(overrides: Partial<DocumentStoreOptions<typeof listSchema>> = {}) {
  const folder = await temporaryFolder()
  const filePath = path.join(folder, 'list.json')
  const corrupt: CorruptFile[] = []
  const options = { filePath, schema: listSchema, fallback: empty, onCorrupt: (found: CorruptFile) => corrupt.push(found), now: fixedNow, ...overrides }
  return { folder, filePath, corrupt, options, store: createDocumentStore(options) }
}

/** An fs whose rename fails, as a crash or a full disk between writing the temp file and putting it in place would. */
const failingRename: AtomicFs = {
  open: fs.open,
  mkdir: fs.mkdir,
  rm: fs.rm,
  rename: async () => {
    throw new Error('simulated failure before rename')
  },
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve))

describe('document store', () => {
  it('starts from the fallback when there is no file, and a new store over the same file reads what was written', async () => {
    const { filePath, options, store, corrupt } = await listStore()
    expect(await store.read()).toEqual(empty)
    await store.write({ version: 1, items: ['a'] })
    expect(await store.update((current) => ({ ...current, items: [...current.items, 'b'] }))).toEqual({ version: 1, items: ['a', 'b'] })
    expect(JSON.parse(await fs.readFile(filePath, 'utf8'))).toEqual({ version: 1, items: ['a', 'b'] })
    expect(await createDocumentStore(options).read()).toEqual({ version: 1, items: ['a', 'b'] })
    expect(corrupt).toEqual([])
  })

  it('reads the file once and serves later reads from memory', async () => {
    const { filePath, store } = await listStore()
    await fs.writeFile(filePath, JSON.stringify({ version: 1, items: ['on disk'] }))
    expect(await store.read()).toEqual({ version: 1, items: ['on disk'] })
    await fs.writeFile(filePath, JSON.stringify({ version: 1, items: ['changed behind its back'] }))
    expect(await store.read()).toEqual({ version: 1, items: ['on disk'] })
  })

  it('moves a file that is not JSON aside under a timestamped name, reports it once, and carries on from the fallback', async () => {
    const { folder, filePath, store, corrupt } = await listStore()
    await fs.writeFile(filePath, '{"version": 1, "items": [')
    // Several first reads at once still read, move and report once.
    expect(await Promise.all([store.read(), store.read(), store.read()])).toEqual([empty, empty, empty])
    expect(corrupt).toHaveLength(1)
    expect(corrupt[0]?.reason).toMatch(/not valid JSON/)
    expect(corrupt[0]?.movedTo).toBe(path.join(folder, 'list.json.corrupt-2026-11-21T10-20-30-456Z'))
    expect(await fs.readFile(String(corrupt[0]?.movedTo), 'utf8')).toBe('{"version": 1, "items": [')
    await expect(fs.access(filePath)).rejects.toThrow()
    // The store keeps working, and writes a fresh file next to the one moved aside.
    await store.update((current) => ({ ...current, items: ['fresh'] }))
    expect(await store.read()).toEqual({ version: 1, items: ['fresh'] })
    expect((await fs.readdir(folder)).sort()).toEqual(['list.json', 'list.json.corrupt-2026-11-21T10-20-30-456Z'])
    expect(corrupt).toHaveLength(1)
  })

  it('treats a file that fails its schema as corrupt and says where', async () => {
    const { filePath, store, corrupt } = await listStore()
    await fs.writeFile(filePath, JSON.stringify({ version: 1, items: ['fine', 42] }))
    expect(await store.read()).toEqual(empty)
    expect(corrupt).toHaveLength(1)
    expect(corrupt[0]?.reason).toMatch(/not what AdOps Desk expects at items\.1/)
    expect(JSON.parse(await fs.readFile(String(corrupt[0]?.movedTo), 'utf8'))).toEqual({ version: 1, items: ['fine', 42] })
  })

  it('runs concurrent updates one at a time in call order, each on the result of the one before', async () => {
    const { filePath, store } = await listStore()
    const seen: string[][] = []
    const updates = Array.from({ length: 20 }, (_, index) =>
      store.update(async (current) => {
        seen.push(current.items)
        // Yield so that, without the queue, the next update would read the same state.
        await nextTurn()
        return { ...current, items: [...current.items, String(index)] }
      }),
    )
    await Promise.all(updates)
    const expected = Array.from({ length: 20 }, (_, index) => String(index))
    expect(seen).toEqual(expected.map((_, index) => expected.slice(0, index)))
    expect(await store.read()).toEqual({ version: 1, items: expected })
    expect(JSON.parse(await fs.readFile(filePath, 'utf8')).items).toEqual(expected)
  })

  it('an update that throws changes nothing and does not block the ones after it', async () => {
    const { filePath, store } = await listStore()
    await store.write({ version: 1, items: ['kept'] })
    const failing = store.update(() => {
      throw new Error('refused')
    })
    const after = store.update((current) => ({ ...current, items: [...current.items, 'after'] }))
    await expect(failing).rejects.toThrow('refused')
    await expect(after).resolves.toEqual({ version: 1, items: ['kept', 'after'] })
    expect(JSON.parse(await fs.readFile(filePath, 'utf8')).items).toEqual(['kept', 'after'])
  })

  it('a write that fails leaves the old file whole, no temp file, and the cached document as it was', async () => {
    const { folder, filePath, options } = await listStore()
    await createDocumentStore(options).write({ version: 1, items: ['old'] })
    const store = createDocumentStore({ ...options, fs: failingRename })
    await expect(store.update((current) => ({ ...current, items: ['new'] }))).rejects.toThrow('simulated failure')
    expect(await fs.readdir(folder)).toEqual(['list.json'])
    expect(JSON.parse(await fs.readFile(filePath, 'utf8'))).toEqual({ version: 1, items: ['old'] })
    expect(await store.read()).toEqual({ version: 1, items: ['old'] })
  })

  it("a failed write becomes the store's own sentence when it has one", async () => {
    const { options } = await listStore()
    const store = createDocumentStore({ ...options, fs: failingRename, saveFailed: 'Your list could not be saved.' })
    await expect(store.write({ version: 1, items: ['x'] })).rejects.toMatchObject({
      code: 'storage',
      message: 'Your list could not be saved.',
      details: { path: options.filePath, error: 'simulated failure before rename' },
    })
  })

  it('remove deletes the file and the next read gives the fallback', async () => {
    const { filePath, store } = await listStore()
    await store.write({ version: 1, items: ['gone soon'] })
    await store.remove()
    await expect(fs.access(filePath)).rejects.toThrow()
    expect(await store.read()).toEqual(empty)
  })
})

describe('document store versioning', () => {
  const v2Schema = z.object({ version: z.literal(2), names: z.array(z.string()) })

  async function versioned(content: unknown, migrate: (raw: OlderDocument) => unknown) {
    const folder = await temporaryFolder()
    const filePath = path.join(folder, 'names.json')
    await fs.writeFile(filePath, JSON.stringify(content))
    const corrupt: CorruptFile[] = []
    const migrated: OlderDocument[] = []
    const store = createDocumentStore({
      filePath,
      schema: v2Schema,
      fallback: { version: 2, names: [] },
      onCorrupt: (found) => corrupt.push(found),
      versioning: {
        version: 2,
        migrate: (raw) => {
          migrated.push(raw)
          return migrate(raw)
        },
      },
    })
    return { filePath, store, corrupt, migrated }
  }

  const v1ToV2 = (raw: OlderDocument) => ({ version: 2, names: [String(raw.name)] })

  it('migrates a file of an older version and writes the new format on the next change', async () => {
    const { filePath, store, corrupt, migrated } = await versioned({ version: 1, name: 'Ada' }, v1ToV2)
    expect(await store.read()).toEqual({ version: 2, names: ['Ada'] })
    expect(migrated).toEqual([{ version: 1, name: 'Ada' }])
    expect(corrupt).toEqual([])
    await store.update((current) => ({ ...current, names: [...current.names, 'Grace'] }))
    expect(JSON.parse(await fs.readFile(filePath, 'utf8'))).toEqual({ version: 2, names: ['Ada', 'Grace'] })
  })

  it('does not migrate a file of the current version', async () => {
    const { store, migrated } = await versioned({ version: 2, names: ['Ada'] }, v1ToV2)
    expect(await store.read()).toEqual({ version: 2, names: ['Ada'] })
    expect(migrated).toEqual([])
  })

  it('moves aside a file from a newer version, a failed migration, and a migration that gives the wrong shape', async () => {
    const newer = await versioned({ version: 3, names: [] }, v1ToV2)
    expect(await newer.store.read()).toEqual({ version: 2, names: [] })
    expect(newer.corrupt[0]?.reason).toMatch(/saved by a newer version of AdOps Desk/)
    expect(newer.migrated).toEqual([])

    const failing = await versioned({ version: 1, name: 'Ada' }, () => {
      throw new Error('no name field')
    })
    expect(await failing.store.read()).toEqual({ version: 2, names: [] })
    expect(failing.corrupt[0]?.reason).toMatch(/could not be brought up to date from format 1 \(no name field\)/)

    const wrongShape = await versioned({ version: 1, name: 'Ada' }, () => ({ version: 2, names: 'Ada' }))
    expect(await wrongShape.store.read()).toEqual({ version: 2, names: [] })
    expect(wrongShape.corrupt[0]?.reason).toMatch(/at names/)
    expect(JSON.parse(await fs.readFile(String(wrongShape.corrupt[0]?.movedTo), 'utf8'))).toEqual({ version: 1, name: 'Ada' })
  })
})

describe('keyed document store', () => {
  type Key = readonly [owner: string, name: string]

  async function keyedStore() {
    const folder = await temporaryFolder()
    const corrupt: Array<CorruptFile & { key: Key }> = []
    const options = {
      folder,
      schema: listSchema,
      fallback: ([, name]: Key): List => ({ version: 1, items: [`empty ${name}`] }),
      onCorrupt: (found: CorruptFile & { key: Key }) => corrupt.push(found),
      now: fixedNow,
    }
    return { folder, corrupt, options, store: createKeyedDocumentStore<typeof listSchema, Key>(options) }
  }
  const list = (...items: string[]): List => ({ version: 1, items })

  it('keeps one file per key under names made safe, and lists the keys back as they were given', async () => {
    const { folder, options, store } = await keyedStore()
    expect(await store.read(['alice', 'notes'])).toEqual(list('empty notes'))
    await store.write(['alice', 'notes'], list('a'))
    await store.write(['../bob/x', 'to.do'], list('b'))
    expect(await fs.readdir(path.join(folder, 'alice'))).toEqual(['notes.json'])
    expect(await fs.readdir(path.join(folder, '%2E%2E%2Fbob%2Fx'))).toEqual(['to%2Edo.json'])
    // Files the store did not make as documents are not keys.
    await fs.writeFile(path.join(folder, 'alice', 'notes.json.corrupt-2026-01-01T00-00-00-000Z'), '{}')
    await fs.writeFile(path.join(folder, 'alice', '.notes.json.abc123.tmp'), '{}')
    await fs.writeFile(path.join(folder, 'alice', 'README.txt'), 'hello')
    expect(await store.keys()).toEqual([['%2E%2E%2Fbob%2Fx', 'to.do'].map(decodeURIComponent), ['alice', 'notes']])
    // A fresh store over the folder sees the same.
    const again = createKeyedDocumentStore<typeof listSchema, Key>(options)
    expect(await again.read(['../bob/x', 'to.do'])).toEqual(list('b'))
  })

  it('moves a corrupt file aside per key and reports it once with its key', async () => {
    const { folder, store, corrupt } = await keyedStore()
    await fs.mkdir(path.join(folder, 'alice'))
    await fs.writeFile(path.join(folder, 'alice', 'notes.json'), 'not json')
    await store.write(['alice', 'todo'], list('fine'))
    expect(await Promise.all([store.read(['alice', 'notes']), store.read(['alice', 'notes'])])).toEqual([list('empty notes'), list('empty notes')])
    expect(await store.read(['alice', 'todo'])).toEqual(list('fine'))
    expect(corrupt).toHaveLength(1)
    expect(corrupt[0]).toMatchObject({ key: ['alice', 'notes'], movedTo: path.join(folder, 'alice', 'notes.json.corrupt-2026-11-21T10-20-30-456Z') })
  })

  it('serialises updates per key in call order', async () => {
    const { store } = await keyedStore()
    const append = (key: Key, item: string) =>
      store.update(key, async (current) => {
        await nextTurn()
        return { ...current, items: [...current.items, item] }
      })
    await Promise.all([append(['a', 'x'], '1'), append(['b', 'x'], '1'), append(['a', 'x'], '2'), append(['b', 'x'], '2'), append(['a', 'x'], '3')])
    expect(await store.read(['a', 'x'])).toEqual(list('empty x', '1', '2', '3'))
    expect(await store.read(['b', 'x'])).toEqual(list('empty x', '1', '2'))
  })

  it("remove deletes one key's file and leaves the others", async () => {
    const { folder, store } = await keyedStore()
    await store.write(['alice', 'notes'], list('a'))
    await store.write(['alice', 'todo'], list('b'))
    await store.remove(['alice', 'notes'])
    expect(await fs.readdir(path.join(folder, 'alice'))).toEqual(['todo.json'])
    expect(await store.read(['alice', 'notes'])).toEqual(list('empty notes'))
    expect(await store.read(['alice', 'todo'])).toEqual(list('b'))
  })

  it('removeAll by prefix removes every file under it, also ones an earlier run wrote, and the emptied folder', async () => {
    const { folder, options, store } = await keyedStore()
    // Written by an earlier run: on disk, never read by this store.
    await createKeyedDocumentStore<typeof listSchema, Key>(options).write(['alice', 'old'], list('from before'))
    await store.write(['alice', 'notes'], list('a'))
    await store.write(['alice.b', 'notes'], list('similar name'))
    await store.write(['bob', 'notes'], list('b'))
    await store.removeAll(['alice'])
    expect((await fs.readdir(folder)).sort()).toEqual(['alice%2Eb', 'bob'])
    expect(await store.keys()).toEqual([
      ['alice.b', 'notes'],
      ['bob', 'notes'],
    ])
    expect(await store.read(['alice', 'notes'])).toEqual(list('empty notes'))
    expect(await store.read(['bob', 'notes'])).toEqual(list('b'))
  })

  it('removeAll keeps a folder that still holds a file moved aside, and takes a test instead of a prefix', async () => {
    const { folder, store } = await keyedStore()
    await fs.mkdir(path.join(folder, 'alice'))
    await fs.writeFile(path.join(folder, 'alice', 'broken.json'), 'not json')
    await store.read(['alice', 'broken'])
    await store.write(['alice', 'notes'], list('a'))
    await store.write(['alice', 'todo'], list('b'))
    await store.removeAll((key) => key[1] === 'notes')
    expect(await store.keys()).toEqual([['alice', 'todo']])
    await store.removeAll(['alice'])
    expect(await fs.readdir(path.join(folder, 'alice'))).toEqual(['broken.json.corrupt-2026-11-21T10-20-30-456Z'])
  })

  it('removeAll comes after the changes asked for before it and before the ones asked for after it', async () => {
    const { store } = await keyedStore()
    const before = store.write(['alice', 'notes'], list('before'))
    const removal = store.removeAll(['alice'])
    const after = store.update(['alice', 'todo'], (current) => ({ ...current, items: ['after'] }))
    const readAfter = store.read(['alice', 'notes'])
    await Promise.all([before, removal, after])
    expect(await readAfter).toEqual(list('empty notes'))
    expect(await store.keys()).toEqual([['alice', 'todo']])
    expect(await store.read(['alice', 'todo'])).toEqual(list('after'))
  })
})

describe('noticeOnCorrupt', () => {
  it("adds a notice in the store's words with where the file went", () => {
    const notices = createNotices(() => 'n1')
    noticeOnCorrupt(
      notices,
      'warning',
      ({ reason }) => `The list could not be read because ${reason}.`,
    )({ movedTo: '/x/list.json.corrupt-1', reason: 'it is not valid JSON' })
    expect(notices.list()).toEqual([
      // A notice crosses the bridge: the file is named, not its absolute path.
      { id: 'n1', level: 'warning', message: 'The list could not be read because it is not valid JSON.', details: { movedTo: 'list.json.corrupt-1' } },
    ])
  })
})
