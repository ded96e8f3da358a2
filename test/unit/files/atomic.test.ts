import { promises as fs } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { writeFileAtomic, type AtomicFs } from '../../../main/services/files/atomic'
import { readJsonFile } from '../../../main/services/files/json-file'
import { profilesFileSchema } from '../../../main/services/profiles/types'
import { temporaryFolder } from '../../support/services'

describe('writeFileAtomic', () => {
  it('replaces the content of a file', async () => {
    const folder = await temporaryFolder()
    const file = path.join(folder, 'data.json')
    await writeFileAtomic(file, 'one')
    await writeFileAtomic(file, 'two')
    expect(await fs.readFile(file, 'utf8')).toBe('two')
    expect(await fs.readdir(folder)).toEqual(['data.json'])
  })

  it('leaves the old content whole when the process dies between write and rename', async () => {
    const folder = await temporaryFolder()
    const file = path.join(folder, 'profiles.json')
    await writeFileAtomic(file, 'the old, complete content')
    const crashing: AtomicFs = {
      open: fs.open,
      mkdir: fs.mkdir,
      rm: fs.rm,
      rename: async () => {
        throw new Error('simulated crash before rename')
      },
    }
    await expect(writeFileAtomic(file, 'the new content that never lands', crashing)).rejects.toThrow('simulated crash')
    expect(await fs.readFile(file, 'utf8')).toBe('the old, complete content')
    // The half-done temp file is cleaned up, not left to confuse the next start.
    expect(await fs.readdir(folder)).toEqual(['profiles.json'])
  })

  it('a crash that leaves a temp file behind does not affect what is read', async () => {
    const folder = await temporaryFolder()
    const file = path.join(folder, 'profiles.json')
    await writeFileAtomic(file, JSON.stringify({ version: 1, profiles: [] }))
    // As if the process was killed after writing the temp file: rm never ran.
    const killed: AtomicFs = {
      open: fs.open,
      mkdir: fs.mkdir,
      rm: async () => undefined,
      rename: async () => {
        throw new Error('killed')
      },
    }
    await expect(writeFileAtomic(file, '{"version":1,"profiles":[{"broken"', killed)).rejects.toThrow('killed')
    const read = await readJsonFile(file, profilesFileSchema)
    expect(read).toEqual({ state: 'ok', value: { version: 1, profiles: [] } })
  })
})

describe('readJsonFile', () => {
  it('moves a corrupt file aside with a timestamp and says why', async () => {
    const folder = await temporaryFolder()
    const file = path.join(folder, 'profiles.json')
    await fs.writeFile(file, '{"version": 1, "profiles": [')
    const read = await readJsonFile(file, profilesFileSchema, () => new Date('2026-11-21T10:20:30.456Z'))
    expect(read.state).toBe('corrupt')
    if (read.state !== 'corrupt') return
    expect(read.reason).toMatch(/not valid JSON/)
    expect(path.basename(read.movedTo)).toBe('profiles.json.corrupt-2026-11-21T10-20-30-456Z')
    expect(await fs.readFile(read.movedTo, 'utf8')).toBe('{"version": 1, "profiles": [')
    await expect(fs.access(file)).rejects.toThrow()
  })

  it('treats a file of the wrong shape as corrupt and names where', async () => {
    const folder = await temporaryFolder()
    const file = path.join(folder, 'profiles.json')
    await fs.writeFile(file, JSON.stringify({ version: 1, profiles: [{ id: 42 }] }))
    const read = await readJsonFile(file, profilesFileSchema)
    expect(read.state).toBe('corrupt')
    if (read.state === 'corrupt') expect(read.reason).toMatch(/profiles\.0/)
  })

  it('reports a missing file as missing, not corrupt', async () => {
    const folder = await temporaryFolder()
    expect(await readJsonFile(path.join(folder, 'none.json'), profilesFileSchema)).toEqual({ state: 'missing' })
  })
})
