import { promises as fs } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../../main/sandbox'
import { safeFileName } from '../../../main/services/files/json-file'
import { createTestServices, tokenProfile } from '../../support/services'

describe('deleting a profile', () => {
  let sandbox: Sandbox
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 })
  })
  afterAll(async () => {
    await sandbox.close()
  })

  it("removes its local lists and drafts from disk and leaves other profiles' alone", async () => {
    const services = await createTestServices()
    try {
      const { info } = sandbox
      const create = (name: string) =>
        services.profiles.create({
          name,
          baseUrl: info.base_url,
          authUrl: info.auth_url,
          reportUrl: info.report_url,
          serviceId: info.service_id,
          auth: { method: 'password', username: 'demo', password: 'demo' },
        })
      const doomed = await create('To be deleted')
      const kept = await create('To be kept')
      for (const profile of [doomed, kept]) {
        await services.entities.sync(profile.id, 'bidders', new AbortController().signal)
        await services.drafts.save(profile.id, { kind: 'brands', key: 'new', draft: { name: `Draft of ${profile.name}` }, original: null })
      }
      const mirrorFolder = (id: string) => path.join(services.userDataDir, 'mirrors', safeFileName(id))
      const draftsFile = (id: string) => path.join(services.userDataDir, 'drafts', `${safeFileName(id)}.json`)
      expect(await fs.readdir(mirrorFolder(doomed.id))).toEqual(['bidders.json'])
      await fs.access(draftsFile(doomed.id))

      await services.profiles.delete(doomed.id)

      await expect(fs.access(mirrorFolder(doomed.id))).rejects.toMatchObject({ code: 'ENOENT' })
      await expect(fs.access(draftsFile(doomed.id))).rejects.toMatchObject({ code: 'ENOENT' })
      expect(await fs.readdir(mirrorFolder(kept.id))).toEqual(['bidders.json'])
      await fs.access(draftsFile(kept.id))
      // Nothing of it is left in memory either.
      expect(await services.entities.mirror(doomed.id, 'bidders')).toEqual({ rows: [], syncedAt: null })
      expect(await services.drafts.list(doomed.id)).toEqual([])
      expect((await services.entities.mirror(kept.id, 'bidders')).rows.length).toBeGreaterThan(0)
      expect(await services.drafts.list(kept.id)).toMatchObject([{ draft: { name: 'Draft of To be kept' } }])
      expect(services.notices.list()).toEqual([])
    } finally {
      await services.close()
    }
  })

  it('still deletes the profile when a listener fails, says so in a notice, and stops calling a listener that unsubscribed', async () => {
    const services = await createTestServices()
    const called: string[] = []
    const stop = services.profiles.onProfileRemoved((id) => {
      called.push(id)
    })
    services.profiles.onProfileRemoved(async () => {
      throw new Error('disk went away')
    })
    const first = await services.profiles.create(tokenProfile)
    const second = await services.profiles.create(tokenProfile)
    await services.profiles.delete(first.id)
    stop()
    await services.profiles.delete(second.id)
    expect(called).toEqual([first.id])
    expect(await services.profiles.list()).toEqual([])
    expect(services.notices.list()).toMatchObject([
      { level: 'warning', message: expect.stringContaining('could not be removed'), details: { errors: ['Error: disk went away'] } },
      { level: 'warning', message: expect.stringContaining('could not be removed'), details: { errors: ['Error: disk went away'] } },
    ])
  })
})
