import { promises as fs } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { alertRuleSchema } from '@contract'
import { createRuleStore } from '../../../main/services/alerts/rules-store'
import { createNotices } from '../../../main/services/notices'
import { temporaryFolder } from '../../support/services'

const rule = alertRuleSchema.parse({ id: 'drop-30', metric: 'impressions', direction: 'drop', minChangePct: 30 })
const now = () => new Date('2026-11-26T10:00:00Z')

describe('alert rules on disk', () => {
  it("keeps a preset's rules in a versioned file of their own, found again in any case of the name", async () => {
    const folder = await temporaryFolder()
    const store = createRuleStore({ folder, notices: createNotices(), now })
    expect(await store.read('Weekly EU')).toEqual({ preset: 'Weekly EU', rules: [], savedAt: null })
    await store.save('Weekly EU', [rule])
    const reopened = createRuleStore({ folder, notices: createNotices(), now })
    expect(await reopened.read('weekly eu')).toEqual({
      preset: 'weekly eu',
      rules: [{ ...rule, minZ: 3, weeks: 4, minBaseline: 0 }],
      savedAt: '2026-11-26T10:00:00.000Z',
    })
    const [file] = await fs.readdir(path.join(folder, 'rules'))
    expect(JSON.parse(await fs.readFile(path.join(folder, 'rules', file as string), 'utf8'))).toMatchObject({ version: 1, preset: 'Weekly EU' })
  })

  it('follows a renamed preset, leaving nothing under the old name', async () => {
    const folder = await temporaryFolder()
    const store = createRuleStore({ folder, notices: createNotices(), now })
    await store.save('Weekly EU', [rule])
    await store.rename('Weekly EU', 'Weekly Europe')
    expect((await store.read('Weekly Europe')).rules.map((kept) => kept.id)).toEqual(['drop-30'])
    expect((await store.read('Weekly EU')).rules).toEqual([])
    expect(await fs.readdir(path.join(folder, 'rules'))).toHaveLength(1)
  })

  it('moves a corrupt file aside with a notice and starts the preset with no rules', async () => {
    const folder = await temporaryFolder()
    await createRuleStore({ folder, notices: createNotices(), now }).save('Weekly EU', [rule])
    const [file] = await fs.readdir(path.join(folder, 'rules'))
    await fs.writeFile(path.join(folder, 'rules', file as string), '{"version": 1, "rules": [')
    const notices = createNotices()
    expect((await createRuleStore({ folder, notices, now }).read('Weekly EU')).rules).toEqual([])
    expect(notices.list().map((notice) => notice.message)).toEqual([
      expect.stringMatching(/^The alert rules of "weekly eu" could not be read because it is not valid JSON/),
    ])
    expect((await fs.readdir(path.join(folder, 'rules'))).some((name) => name !== file && name.startsWith(file as string))).toBe(true)
  })

  it('leaves nothing half-read from a file of a newer format', async () => {
    const folder = await temporaryFolder()
    await createRuleStore({ folder, notices: createNotices(), now }).save('Weekly EU', [rule])
    const [file] = await fs.readdir(path.join(folder, 'rules'))
    await fs.writeFile(path.join(folder, 'rules', file as string), JSON.stringify({ version: 2, preset: 'Weekly EU', savedAt: null, rules: [] }))
    const notices = createNotices()
    expect((await createRuleStore({ folder, notices, now }).read('Weekly EU')).rules).toEqual([])
    expect(notices.list()[0]?.message).toMatch(/saved by a newer version of AdOps Desk/)
  })
})
