import { writeFile } from 'node:fs/promises'
import { singleSeriesChart } from '../../support/chart-results'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Outcome, ReportDefinition, ResultCacheState, TimeSeriesView } from '@contract'
import { dispatch } from '../../../main/handlers/dispatch'
import { createHandlers } from '../../../main/handlers/handlers'
import type { Services } from '../../../main/services'
import { createNotices } from '../../../main/services/notices'
import { createSettingsStore } from '../../../main/services/workspace/settings-store'
import { sampleDefinition } from '../../support/channel-samples'
import { createTestServices, temporaryFolder } from '../../support/services'

const MEGABYTE = 1024 * 1024

/** A chart result of roughly `megabytes` on disk: one series of that many values. */
function chartOf(megabytes: number, ranAt: string): TimeSeriesView {
  const points = Math.round((megabytes * MEGABYTE) / 20)
  return singleSeriesChart({ values: Array.from({ length: points }, (_, index) => index + 0.25), ranAt, timezone: 0, durationMs: 5 })
}

const definitionFor = (project: string): ReportDefinition => ({ ...sampleDefinition, project })

async function put(services: Services, project: string, megabytes: number): Promise<void> {
  await services.results.put({
    profileId: 'p1',
    preset: null,
    definition: definitionFor(project),
    requests: [],
    kind: 'chart',
    result: chartOf(megabytes, `2026-01-05T0${project.length}:00:00.000Z`),
  })
}

function caller(services: Services) {
  const handlers = createHandlers(services, { nativeSaveDialog: false })
  return (channel: 'app:resultCache' | 'app:setResultCacheLimit' | 'app:info', input: unknown) =>
    dispatch(handlers, channel, input) as Promise<Outcome<unknown>>
}

describe('the offline results size limit', () => {
  it('is remembered across restarts, and a smaller one evicts the least recently used results at once', async () => {
    const userDataDir = await temporaryFolder()
    const services = await createTestServices({ userDataDir })
    const call = caller(services)
    // Six results of about 3 MB; the one of project "b" is opened again, so it is used most recently but one.
    for (const project of ['a', 'b', 'c', 'd', 'e', 'f']) await put(services, project, 3)
    expect(await services.results.get('p1', 'chart', definitionFor('b'), null)).not.toBeNull()
    await put(services, 'g', 3)
    const before = (await call('app:resultCache', {})) as { ok: true; value: ResultCacheState }
    expect(before.value).toMatchObject({ limitMegabytes: 200, entries: 7 })
    expect(before.value.usedBytes).toBeGreaterThan(18 * MEGABYTE)

    const after = (await call('app:setResultCacheLimit', { megabytes: 10 })) as { ok: true; value: ResultCacheState }
    expect(after.value.limitMegabytes).toBe(10)
    expect(after.value.usedBytes).toBeLessThanOrEqual(10 * MEGABYTE)
    expect(after.value.entries).toBe(3)
    // The newest and the one just opened stay; the oldest untouched ones went.
    expect(await services.results.get('p1', 'chart', definitionFor('g'), null)).not.toBeNull()
    expect(await services.results.get('p1', 'chart', definitionFor('b'), null)).not.toBeNull()
    expect(await services.results.get('p1', 'chart', definitionFor('a'), null)).toBeNull()
    expect(await services.results.get('p1', 'chart', definitionFor('c'), null)).toBeNull()
    await services.close()

    const restarted = await createTestServices({ userDataDir })
    expect(await caller(restarted)('app:resultCache', {})).toMatchObject({ ok: true, value: { limitMegabytes: 10, entries: 3 } })
    expect((await restarted.settings.read()).resultCacheMegabytes).toBe(10)
    await restarted.close()
  })

  it('refuses a limit out of bounds and keeps the one set', async () => {
    const services = await createTestServices()
    const call = caller(services)
    for (const megabytes of [0, 9, 100_001, 12.5, -1]) {
      expect(await call('app:setResultCacheLimit', { megabytes }), String(megabytes)).toMatchObject({ ok: false, error: { code: 'bad_input' } })
    }
    expect(await call('app:setResultCacheLimit', { megabytes: 100_000 })).toMatchObject({ ok: true, value: { limitMegabytes: 100_000 } })
    expect(await call('app:setResultCacheLimit', { megabytes: '50' })).toMatchObject({ ok: false })
    expect((await services.settings.read()).resultCacheMegabytes).toBe(100_000)
    await services.close()
  })
})

describe('the log level', () => {
  it('is applied to the log at once and remembered across restarts', async () => {
    const userDataDir = await temporaryFolder()
    const services = await createTestServices({ userDataDir })
    const handlers = createHandlers(services, { nativeSaveDialog: false })
    expect(await dispatch(handlers, 'app:info', {})).toMatchObject({ ok: true, value: { logLevel: 'info' } })
    expect(await dispatch(handlers, 'app:setLogLevel', { level: 'debug' })).toEqual({ ok: true, value: null })
    expect(services.log.level()).toBe('debug')
    await services.close()
    const restarted = await createTestServices({ userDataDir })
    expect(restarted.log.level()).toBe('debug')
    expect(await dispatch(createHandlers(restarted, { nativeSaveDialog: false }), 'app:info', {})).toMatchObject({ ok: true, value: { logLevel: 'debug' } })
    await restarted.close()
  })
})

describe('a settings file with a limit out of bounds', () => {
  it('gets the default limit and keeps its other settings', async () => {
    const folder = await temporaryFolder()
    await writeFile(path.join(folder, 'settings.json'), JSON.stringify({ version: 1, activeProfileId: 'p1', resultCacheMegabytes: 3, theme: 'dark' }))
    const notices = createNotices()
    expect(await createSettingsStore(folder, notices).read()).toMatchObject({ activeProfileId: 'p1', resultCacheMegabytes: 200, theme: 'dark' })
    expect(notices.list()).toEqual([])
  })
})
