import { promises as fs } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { createNotices } from '../../../main/services/notices'
import { createPresetStore } from '../../../main/services/presets/preset-store'
import { temporaryFolder } from '../../support/services'

/** The store's clock; the temps' times are set against it. */
const now = () => new Date('2026-03-01T12:00:00.000Z')
const hoursAgo = (hours: number) => new Date(now().getTime() - hours * 60 * 60 * 1000)

async function leave(folder: string, name: string, changed: Date): Promise<void> {
  await fs.writeFile(path.join(folder, name), '{"half": ')
  await fs.utimes(path.join(folder, name), changed, changed)
}

describe('temp files of interrupted preset writes', () => {
  it('are swept when the presets folder is first read: stale ones only, of preset files only', async () => {
    const folder = await temporaryFolder()
    await leave(folder, '.weekly-eu.json.0123456789ab.tmp', hoursAgo(3))
    // Younger than an hour: may be a write in flight (the command line's, say).
    await leave(folder, '.monthly.json.ba9876543210.tmp', hoursAgo(0.5))
    // Not of our naming, or not a preset's: left alone.
    await leave(folder, '.notes.txt.0123456789ab.tmp', hoursAgo(3))
    await leave(folder, '.weekly-eu.json.not-hex.tmp', hoursAgo(3))
    const store = createPresetStore({ folder, notices: createNotices(), now })
    expect(await store.list()).toEqual(expect.objectContaining({ presets: [] }))
    expect((await fs.readdir(folder)).sort()).toEqual(['.monthly.json.ba9876543210.tmp', '.notes.txt.0123456789ab.tmp', '.weekly-eu.json.not-hex.tmp'])
  })
})
