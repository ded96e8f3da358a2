import { promises as fs } from 'node:fs'
import path from 'node:path'
import vm from 'node:vm'
import { beforeAll, describe, expect, it } from 'vitest'
import { channelNames, eventChannel, eventNames, splitChannel } from '@contract'

const bundlePath = path.join(import.meta.dirname, '..', '..', '..', 'out', 'preload', 'index.cjs')

interface Exposure {
  name: string
  api: Record<string, unknown>
}

/** Runs the BUILT preload in a VM with stand-in contextBridge and ipcRenderer, as Electron's sandbox would. */
async function loadPreload() {
  const source = await fs.readFile(bundlePath, 'utf8').catch(() => {
    throw new Error(`No preload bundle at ${bundlePath}; run "npm run build" first (npm test does).`)
  })
  const exposures: Exposure[] = []
  const invoked: Array<{ channel: string; input: unknown }> = []
  const subscriptions = new Map<string, Array<(event: unknown, payload: unknown) => void>>()
  const requested: string[] = []
  const electron = {
    contextBridge: { exposeInMainWorld: (name: string, api: Record<string, unknown>) => exposures.push({ name, api }) },
    ipcRenderer: {
      invoke: async (channel: string, input: unknown) => {
        invoked.push({ channel, input })
        return { ok: true, value: null }
      },
      on: (channel: string, listener: (event: unknown, payload: unknown) => void) => {
        subscriptions.set(channel, [...(subscriptions.get(channel) ?? []), listener])
      },
      removeListener: (channel: string, listener: (event: unknown, payload: unknown) => void) => {
        subscriptions.set(
          channel,
          (subscriptions.get(channel) ?? []).filter((existing) => existing !== listener),
        )
      },
    },
  }
  // A sandboxed preload may require only 'electron' (and a few built-ins); anything else means the bundle is not self-contained.
  const sandboxRequire = (name: string) => {
    requested.push(name)
    if (name === 'electron') return electron
    throw new Error(`a sandboxed preload cannot require "${name}"`)
  }
  const module = { exports: {} }
  vm.runInNewContext(source, { require: sandboxRequire, module, exports: module.exports, console, process: { env: {} } }, { filename: bundlePath })
  return { exposures, invoked, subscriptions, requested }
}

describe('the built preload bundle', () => {
  let loaded: Awaited<ReturnType<typeof loadPreload>>
  beforeAll(async () => {
    loaded = await loadPreload()
  })

  it('is one self-contained CommonJS file that requires only electron', () => {
    expect([...new Set(loaded.requested)]).toEqual(['electron'])
  })

  it("holds the contract's names and none of its schemas (main validates), so the page starts without parsing zod", async () => {
    const source = await fs.readFile(bundlePath, 'utf8')
    expect(source).not.toMatch(/zod|safeParse/i)
    expect(source.length).toBeLessThan(20_000)
  })

  it('exposes exactly the contract as window.api and nothing else', () => {
    expect(loaded.exposures.map((exposure) => exposure.name)).toEqual(['api'])
    const api = loaded.exposures[0]?.api ?? {}
    const expected: Record<string, string[]> = {}
    for (const name of channelNames) {
      const { domain, verb } = splitChannel(name)
      ;(expected[domain] ??= []).push(verb)
    }
    const domains = Object.keys(api).filter((key) => !eventNames.includes(key as never))
    expect(domains.sort()).toEqual(Object.keys(expected).sort())
    for (const [domain, verbs] of Object.entries(expected)) {
      const group = api[domain] as Record<string, unknown>
      expect(Object.keys(group).sort(), domain).toEqual(verbs.sort())
      for (const verb of verbs) expect(typeof group[verb]).toBe('function')
    }
    for (const event of eventNames) expect(typeof api[event]).toBe('function')
    // No generic escape hatch.
    for (const forbidden of ['invoke', 'send', 'on', 'ipcRenderer', 'require']) expect(api[forbidden]).toBeUndefined()
  })

  it('sends each function to its own channel and strips the IPC event from listeners', async () => {
    const api = loaded.exposures[0]?.api as Record<string, Record<string, (input: unknown) => Promise<unknown>>>
    await api.profiles?.list?.({})
    await api.app?.dismissNotice?.({ id: 'x' })
    expect(loaded.invoked).toEqual([
      { channel: 'profiles:list', input: {} },
      { channel: 'app:dismissNotice', input: { id: 'x' } },
    ])
    const received: unknown[] = []
    const subscribe = (api as unknown as Record<string, (listener: (payload: unknown) => void) => () => void>).onNotice
    const unsubscribe = subscribe?.((...args: unknown[]) => received.push(args))
    const channel = eventChannel('onNotice')
    for (const listener of loaded.subscriptions.get(channel) ?? []) listener({ sender: 'the ipcRenderer event' }, { id: 'n1' })
    expect(received).toEqual([[{ id: 'n1' }]])
    unsubscribe?.()
    expect(loaded.subscriptions.get(channel)).toEqual([])
  })
})
