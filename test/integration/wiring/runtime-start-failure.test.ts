import { describe, expect, it, vi } from 'vitest'
import { createRuntime, type HostAdapters } from '../../../main/runtime'
import type * as ExportJobsModule from '../../../main/services/exports/jobs'
import type * as DisposablesModule from '../../../main/services/lifecycle/disposables'
import { createMemoryKeychain } from '../../support/memory-keychain'
import { temporaryFolder } from '../../support/services'

/** Each teardown made while the runtime is built, numbered in the order it was made, and the order they were released in. */
const teardowns = vi.hoisted(() => ({ made: 0, released: [] as number[], failExportJobs: false }))

vi.mock('../../../main/services/lifecycle/disposables', async (importOriginal) => {
  const original = await importOriginal<typeof DisposablesModule>()
  return {
    ...original,
    toDisposable: (release: () => void | Promise<void>) => {
      const number = (teardowns.made += 1)
      return original.toDisposable(() => {
        teardowns.released.push(number)
        return release()
      })
    },
  }
})

vi.mock('../../../main/services/exports/jobs', async (importOriginal) => {
  const original = await importOriginal<typeof ExportJobsModule>()
  return {
    ...original,
    createExportService: (...args: Parameters<typeof original.createExportService>) => {
      if (teardowns.failExportJobs) throw new Error('export jobs could not be built')
      return original.createExportService(...args)
    },
  }
})

function host(overrides: Partial<HostAdapters> = {}): HostAdapters {
  return {
    openKeychain: async () => createMemoryKeychain(),
    loadSandbox: () => Promise.reject(new Error('no demo in this test')),
    sendEvent: () => undefined,
    ...overrides,
  }
}

async function start(adapters: HostAdapters): Promise<unknown> {
  teardowns.made = 0
  teardowns.released = []
  return createRuntime({
    userDataDir: await temporaryFolder(),
    keychainServiceName: 'AdOps Desk start failure test',
    environment: { version: '0.0.0-test', platform: 'test' },
    host: adapters,
  })
}

/** 1..n backwards: everything made, released last made first. */
const reversed = (count: number): number[] => Array.from({ length: count }, (_, index) => count - index)

describe('a runtime that fails to start', () => {
  it('releases what was built before a factory threw, last built first, and reports the failure', async () => {
    teardowns.failExportJobs = true
    try {
      await expect(start(host())).rejects.toThrow('export jobs could not be built')
    } finally {
      teardowns.failExportJobs = false
    }
    // The log, notices, sockets, connections, theme and the connection-removed subscriptions were built before it.
    expect(teardowns.made).toBeGreaterThan(5)
    expect(teardowns.released).toEqual(reversed(teardowns.made))
  })

  it('releases everything built when start() fails', async () => {
    const failing = host({
      systemTheme: {
        prefersDark: () => false,
        apply: () => {
          throw new Error('the OS theme could not be applied')
        },
        onChange: () => () => undefined,
      },
    })
    await expect(start(failing)).rejects.toThrow('the OS theme could not be applied')
    expect(teardowns.made).toBeGreaterThan(5)
    expect(teardowns.released).toEqual(reversed(teardowns.made))
  })
})
