import path from 'node:path'
import type { Alias, ConfigEnv, UserConfig, UserConfigFnPromise } from 'vite'
import { describe, expect, it, vi } from 'vitest'
import type * as Engine from '../../../main/services/analysis/engine'

// Every end-to-end test starts a web host: what it loads at start is paid some 60 times a suite.
let duckdbLoads = 0
vi.mock('@duckdb/node-api', async (importOriginal) => {
  duckdbLoads++
  return importOriginal()
})

// The engine's loader, counted: the warm-up is what calls it a moment after start.
let engineLoads = 0
vi.mock('../../../main/services/analysis/engine', async (importOriginal) => {
  const original = await importOriginal<typeof Engine>()
  return {
    ...original,
    loadEngine: () => {
      engineLoads++
      return original.loadEngine()
    },
  }
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

  it('is off when the host says so (the end-to-end hosts): nothing loads in the background', async () => {
    const { ENGINE_WARM_UP_DELAY_MS } = await import('../../../main/services/analysis/engine')
    const { createTestServices } = await import('../../support/services')
    const before = engineLoads
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const off = await createTestServices({ extra: { engineWarmUp: false } })
    const on = await createTestServices()
    try {
      vi.advanceTimersByTime(ENGINE_WARM_UP_DELAY_MS)
      // One load more: the host that kept the warm-up; the other waits for its first analysis.
      expect(engineLoads).toBe(before + 1)
    } finally {
      vi.useRealTimers()
      await off.close()
      await on.close()
    }
  })

  it('is built with zod bundled and only the files of undici the HTTP client uses, as the command line is', async () => {
    const configure = (await import('../../../vite.config')).default as UserConfigFnPromise
    const environment: ConfigEnv = { command: 'build', mode: 'web', isSsrBuild: true, isPreview: false }
    const web: UserConfig = await configure(environment)
    expect(web.ssr?.noExternal).toEqual(['zod'])
    const undici = (web.resolve?.alias as Alias[]).find((alias) => alias.find instanceof RegExp && alias.find.test('undici'))
    expect(undici?.replacement).toBe(path.join(root, 'build', 'cli-undici.mjs'))
  })
})
