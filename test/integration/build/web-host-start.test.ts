import path from 'node:path'
import type { Alias, ConfigEnv, UserConfig, UserConfigFnObject } from 'vite'
import { describe, expect, it, vi } from 'vitest'

// Every end-to-end test starts a web host: what it loads at start is paid some 60 times a suite.
let duckdbLoads = 0
vi.mock('@duckdb/node-api', async (importOriginal) => {
  duckdbLoads++
  return importOriginal()
})

const root = path.resolve(import.meta.dirname, '..', '..', '..')

describe("the web host's start", () => {
  it('loads DuckDB a moment after the services start, not at their start, once for every analysis', async () => {
    const { createLockedDatabase, ENGINE_WARM_UP_DELAY_MS } = await import('../../../main/services/analysis/engine')
    expect(duckdbLoads).toBe(0)
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const { createTestServices } = await import('../../support/services')
    const services = await createTestServices()
    try {
      expect(duckdbLoads).toBe(0)
      vi.advanceTimersByTime(ENGINE_WARM_UP_DELAY_MS)
      vi.useRealTimers()
      // Loaded by the warm-up, before any analysis asked for it.
      await vi.waitFor(() => expect(duckdbLoads).toBe(1))
      for (let analysis = 0; analysis < 2; analysis++) (await createLockedDatabase(async () => undefined)).close()
      expect(duckdbLoads).toBe(1)
    } finally {
      vi.useRealTimers()
      await services.close()
    }
  })

  it('is built with zod bundled and only the files of undici the HTTP client uses, as the command line is', async () => {
    const configure = (await import('../../../vite.config')).default as UserConfigFnObject
    const environment: ConfigEnv = { command: 'build', mode: 'web', isSsrBuild: true, isPreview: false }
    const web: UserConfig = configure(environment)
    expect(web.ssr?.noExternal).toEqual(['zod'])
    const undici = (web.resolve?.alias as Alias[]).find((alias) => alias.find instanceof RegExp && alias.find.test('undici'))
    expect(undici?.replacement).toBe(path.join(root, 'build', 'cli-undici.mjs'))
  })
})
