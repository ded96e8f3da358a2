import path from 'node:path'
import { rm } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { changesFolder } from '../../../main/services/changes/change-log'
import { descriptorsOn } from '../../support/descriptors'
import { createTestServices } from '../../support/services'

describe('the services’ lifetime and the files they keep open', () => {
  // A connection's change log stays open for appending while the app runs. Closing the app must
  // sync and close it: a descriptor left to the garbage collector is a leak, and on Windows an
  // open log keeps its folder from being removed.
  it.skipIf(process.platform !== 'linux')('closing the services closes every change log they opened', async () => {
    const services = await createTestServices()
    try {
      await services.changes.record([
        {
          change: 'c1',
          batch: 'b1',
          source: 'single',
          title: 'Edit of brand 7',
          at: '2026-11-26T10:00:00.000Z',
          profileId: 'p1',
          kind: 'brands',
          id: 7,
          before: { id: 7, name: 'Old' },
          after: { id: 7, name: 'New' },
          outcome: 'applied',
        },
      ])
      const log = path.join(changesFolder(services.userDataDir), 'p1.jsonl')
      expect(await descriptorsOn(log)).toBe(1)
      await services.close()
      expect(await descriptorsOn(log)).toBe(0)
    } finally {
      await services.close()
      await rm(services.userDataDir, { recursive: true, force: true })
    }
  })
})
