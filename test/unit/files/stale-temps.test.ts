import { promises as fs } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { sweepStaleTemps } from '../../../main/services/files/atomic'
import { createDocumentStore, createKeyedDocumentStore } from '../../../main/services/files/document-store'
import { temporaryFolder } from '../../support/services'

/** The store's clock; file times are set against it, so nothing here depends on the real time. */
const now = () => new Date('2026-03-01T12:00:00.000Z')
const hoursAgo = (hours: number) => new Date(now().getTime() - hours * 60 * 60 * 1000)
const schema = z.object({ version: z.literal(1), items: z.array(z.string()) })

/** A file as a killed write (or a neighbour) left it, last changed at `changed`. */
async function leave(folder: string, name: string, changed: Date): Promise<void> {
  await fs.mkdir(folder, { recursive: true })
  await fs.writeFile(path.join(folder, name), '{"half": ')
  await fs.utimes(path.join(folder, name), changed, changed)
}

describe('temp files of interrupted atomic writes', () => {
  it("a document store's start removes its own stale temps, and only those", async () => {
    const folder = await temporaryFolder()
    await fs.writeFile(path.join(folder, 'list.json'), '{"version":1,"items":["kept"]}')
    await leave(folder, '.list.json.0123456789ab.tmp', hoursAgo(3))
    // Younger than an hour: may be a write in flight (another process's).
    await leave(folder, '.list.json.ba9876543210.tmp', hoursAgo(0.5))
    // Another file's temp, names not of our pattern, a folder: none of this store's business.
    await leave(folder, '.other.json.0123456789ab.tmp', hoursAgo(3))
    await leave(folder, '.list.json.not-hex-at-all.tmp', hoursAgo(3))
    await leave(folder, 'list.json.tmp', hoursAgo(3))
    await fs.mkdir(path.join(folder, '.list.json.aaaaaaaaaaaa.tmp'))

    const store = createDocumentStore({
      filePath: path.join(folder, 'list.json'),
      schema,
      fallback: { version: 1, items: [] },
      onCorrupt: () => undefined,
      now,
    })
    expect(await store.read()).toEqual({ version: 1, items: ['kept'] })
    expect((await fs.readdir(folder)).sort()).toEqual(
      [
        '.list.json.aaaaaaaaaaaa.tmp',
        '.list.json.ba9876543210.tmp',
        '.list.json.not-hex-at-all.tmp',
        '.other.json.0123456789ab.tmp',
        'list.json',
        'list.json.tmp',
      ].sort(),
    )
  })

  it("a keyed store's first walk removes stale temps of its documents in every folder", async () => {
    const folder = await temporaryFolder()
    await leave(path.join(folder, 'p1'), '.publishers.json.0123456789ab.tmp', hoursAgo(2))
    await leave(path.join(folder, 'p1'), '.notes.txt.0123456789ab.tmp', hoursAgo(2))
    await leave(path.join(folder, 'p2'), '.brands.json.ba9876543210.tmp', hoursAgo(0.2))
    const store = createKeyedDocumentStore<typeof schema, readonly [profileId: string, kind: string]>({
      folder,
      schema,
      fallback: () => ({ version: 1, items: [] }),
      onCorrupt: () => undefined,
      now,
    })
    expect(await store.keys()).toEqual([])
    expect(await fs.readdir(path.join(folder, 'p1'))).toEqual(['.notes.txt.0123456789ab.tmp'])
    expect(await fs.readdir(path.join(folder, 'p2'))).toEqual(['.brands.json.ba9876543210.tmp'])
  })

  it('the sweep leaves a missing folder alone and says what it removed', async () => {
    const folder = await temporaryFolder()
    expect(await sweepStaleTemps(path.join(folder, 'nowhere'), { now })).toEqual([])
    await leave(folder, '.a.kept.0123456789ab.tmp', hoursAgo(1.5))
    expect(await sweepStaleTemps(folder, { now })).toEqual(['.a.kept.0123456789ab.tmp'])
  })
})
