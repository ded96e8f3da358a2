import { promises as fs } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { AlertRule } from '@contract'
import { DEMO_ALERTS_PRESET, seedDemoAlerts } from '../../../main/services/alerts/demo-seed'
import { createNotices } from '../../../main/services/notices'
import { createPresetStore } from '../../../main/services/presets/preset-store'
import { createSettingsStore } from '../../../main/services/workspace/settings-store'
import { temporaryFolder } from '../../support/services'

describe("the demo's seeded preset", () => {
  it('is a daily chart in the contract’s words: granularity_day, not the short “day”', async () => {
    const userData = await temporaryFolder('adops-seed-')
    const notices = createNotices()
    const presets = createPresetStore({ folder: path.join(userData, 'presets'), notices, now: () => new Date('2026-12-07T09:00:00Z') })
    const savedRules: Array<{ preset: string; rules: readonly AlertRule[] }> = []
    const rules = {
      save: (preset: string, list: readonly AlertRule[]) => {
        savedRules.push({ preset, rules: list })
        return Promise.resolve({ preset, rules: [...list], savedAt: null })
      },
    }
    await seedDemoAlerts({ presets, rules, settings: createSettingsStore(userData, notices) })
    expect((await presets.get(DEMO_ALERTS_PRESET)).definition.granularity).toBe('granularity_day')
    // The file as written, not only as read (a read takes the short form as its key too).
    const [file] = await fs.readdir(path.join(userData, 'presets'))
    const written = JSON.parse(await fs.readFile(path.join(userData, 'presets', String(file)), 'utf8')) as { definition: { granularity: string } }
    expect(written.definition.granularity).toBe('granularity_day')
    expect(savedRules.map((saved) => saved.preset)).toEqual([DEMO_ALERTS_PRESET])
  })
})
