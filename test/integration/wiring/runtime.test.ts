import { promises as fs } from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { DEMO_PROFILE_ID, eventChannel } from '@contract'
import { dispatch } from '../../../main/handlers/dispatch'
import { startWebHost } from '../../../main/hosts/web/server'
import { createRuntime, type LoadSandbox, type Runtime } from '../../../main/runtime'
import { createFolderDialogs } from '../../../main/services/files/folder-dialogs'
import { startSandboxInWorker } from '../../../main/sandbox/in-worker'
import { chunkSources } from '../../support/chunk-sources'
import { createMemoryKeychain } from '../../support/memory-keychain'
import { temporaryFolder } from '../../support/services'

const root = path.join(import.meta.dirname, '..', '..', '..')
const sandboxDir = path.join(root, 'main', 'sandbox')

/** The real demo backend behind a loader that counts how often it was asked for. */
function countingLoader(): { load: LoadSandbox; calls: () => number } {
  let calls = 0
  return {
    load: () => {
      calls += 1
      return import('../../../main/sandbox')
    },
    calls: () => calls,
  }
}

describe('the composition root (main/runtime.ts)', () => {
  let runtime: Runtime | undefined
  afterEach(async () => {
    await runtime?.close()
    runtime = undefined
  })

  async function build(options: { nativeDialogs: boolean; loadSandbox: LoadSandbox; sent?: string[] }): Promise<Runtime> {
    const userDataDir = await temporaryFolder()
    runtime = await createRuntime({
      userDataDir,
      keychainServiceName: 'AdOps Desk runtime test',
      environment: { version: '0.0.0-test', platform: 'test' },
      host: {
        openKeychain: async () => createMemoryKeychain(),
        // Dialogs of its own make a host "native" to the page, whatever they are.
        ...(options.nativeDialogs ? { dialogs: createFolderDialogs(userDataDir) } : {}),
        loadSandbox: options.loadSandbox,
        sendEvent: (event) => options.sent?.push(eventChannel(event)),
      },
    })
    return runtime
  }

  it('starts and answers without loading the demo backend, and loads it once when the demo opens', async () => {
    const sandbox = countingLoader()
    const { handlers } = await build({ nativeDialogs: true, loadSandbox: sandbox.load })
    for (const channel of ['app:info', 'profiles:list', 'workspace:state', 'entities:kinds'] as const) {
      expect(await dispatch(handlers, channel, {}), channel).toMatchObject({ ok: true })
    }
    expect(sandbox.calls()).toBe(0)

    expect(await dispatch(handlers, 'workspace:activate', { profileId: DEMO_PROFILE_ID })).toMatchObject({ ok: true, value: { id: DEMO_PROFILE_ID } })
    expect(sandbox.calls()).toBe(1)
    expect(await dispatch(handlers, 'workspace:state', {})).toEqual({ ok: true, value: { activeProfileId: DEMO_PROFILE_ID, demoRunning: true } })
    await dispatch(handlers, 'workspace:activate', { profileId: DEMO_PROFILE_ID })
    expect(sandbox.calls()).toBe(1)
  })

  it('tells the page through app:info whether there is a native save dialog', async () => {
    const neverLoaded: LoadSandbox = () => Promise.reject(new Error('no demo in this test'))
    const withDialog = await build({ nativeDialogs: true, loadSandbox: neverLoaded })
    expect(await dispatch(withDialog.handlers, 'app:info', {})).toMatchObject({ ok: true, value: { capabilities: { nativeSaveDialog: true } } })
    await withDialog.close()
    const withoutDialog = await build({ nativeDialogs: false, loadSandbox: neverLoaded })
    expect(await dispatch(withoutDialog.handlers, 'app:info', {})).toMatchObject({ ok: true, value: { capabilities: { nativeSaveDialog: false } } })
  })

  it('wires service events to the sink it is given, and stops on close', async () => {
    const sent: string[] = []
    const built = await build({ nativeDialogs: false, loadSandbox: () => Promise.reject(new Error('no demo in this test')), sent })
    built.services.events.emit('onThrottled', { profileId: null, waitSeconds: 1, url: 'http://127.0.0.1:9/' })
    expect(sent).toEqual([eventChannel('onThrottled')])
    await built.close()
    runtime = undefined
    built.services.events.emit('onThrottled', { profileId: null, waitSeconds: 1, url: 'http://127.0.0.1:9/' })
    expect(sent).toEqual([eventChannel('onThrottled')])
  })
})

describe('the web host over the runtime', () => {
  it('serves app:info without a save dialog and without loading the demo backend', async () => {
    const rendererDir = await temporaryFolder('adops-renderer-')
    await fs.writeFile(path.join(rendererDir, 'index.html'), '<!doctype html><html><head><title>AdOps Desk</title></head></html>')
    const sandbox = countingLoader()
    const host = await startWebHost({
      port: 0,
      userDataDir: await temporaryFolder(),
      rendererDir,
      keychainServiceName: 'AdOps Desk web host test',
      openKeychain: async () => createMemoryKeychain(),
      loadSandbox: sandbox.load,
    })
    try {
      const page = await (await fetch(host.url)).text()
      const token = /<meta name="adops-host-token" content="([0-9a-f]+)"/.exec(page)?.[1] ?? ''
      const response = await fetch(new URL('/__host/invoke/app:info', host.url), {
        method: 'POST',
        headers: { origin: new URL(host.url).origin, 'content-type': 'application/json', 'x-adops-host-token': token },
        body: '{}',
      })
      expect(await response.json()).toMatchObject({ ok: true, value: { capabilities: { nativeSaveDialog: false } } })
      expect(sandbox.calls()).toBe(0)
    } finally {
      await host.close()
    }
  })
})

/** Files of the built main bundle, each with the source files its sourcemap says went into it. */
async function builtChunks(): Promise<Map<string, { code: string; sources: string[] }>> {
  const outDir = path.join(root, 'out', 'main')
  await fs.access(path.join(outDir, 'index.js')).catch(() => {
    throw new Error('No build output; run "npm run build" first (npm test does).')
  })
  const chunks = new Map<string, { code: string; sources: string[] }>()
  for (const name of await fs.readdir(outDir, { recursive: true })) {
    if (!name.endsWith('.js')) continue
    const file = path.join(outDir, name)
    chunks.set(file, { code: await fs.readFile(file, 'utf8'), sources: chunkSources(file) })
  }
  return chunks
}

const relativeSpecifiers = (code: string, pattern: RegExp): string[] => [...code.matchAll(pattern)].map((match) => match[1] ?? '')

describe('the built main bundle', () => {
  it('keeps main/sandbox in a chunk of its own that only a dynamic import reaches', async () => {
    const chunks = await builtChunks()
    const fromSandbox = (file: string) => chunks.get(file)?.sources.some((source) => source.startsWith(sandboxDir + path.sep)) === true

    // Everything the entry loads at start: its static imports, followed transitively.
    const entry = path.join(root, 'out', 'main', 'index.js')
    const loadedAtStart = new Set<string>()
    const pending = [entry]
    while (pending.length > 0) {
      const file = pending.pop() as string
      if (loadedAtStart.has(file)) continue
      loadedAtStart.add(file)
      const code = chunks.get(file)?.code ?? ''
      for (const specifier of relativeSpecifiers(code, /^(?:import|export)(?!\s*\()[^;]*?["'](\.{1,2}\/[^"']+)["']/gm))
        pending.push(path.resolve(path.dirname(file), specifier))
    }
    expect([...loadedAtStart].filter(fromSandbox)).toEqual([])

    const loadedLater = [...loadedAtStart].flatMap((file) =>
      relativeSpecifiers(chunks.get(file)?.code ?? '', /\bimport\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g).map((specifier) =>
        path.resolve(path.dirname(file), specifier),
      ),
    )
    expect(loadedLater.filter(fromSandbox)).toHaveLength(1)
    // What main loads when the demo opens is the worker's client, not the sandbox itself.
    const client = loadedLater.find(fromSandbox) as string
    expect(chunks.get(client)?.sources.filter((source) => source.startsWith(sandboxDir + path.sep))).toEqual([path.join(sandboxDir, 'in-worker.ts')])
  })

  it("emits the demo backend's worker as a file of its own that no chunk imports, and it runs in a worker thread", async () => {
    const chunks = await builtChunks()
    const workerFile = path.join(root, 'out', 'main', 'sandbox-worker.js')
    expect(chunks.get(workerFile)?.sources).toEqual(expect.arrayContaining([path.join(sandboxDir, 'worker.ts'), path.join(sandboxDir, 'index.ts')]))
    for (const [file, { code }] of chunks) {
      if (file !== workerFile) expect(code, file).not.toMatch(/import\s*\(?\s*["'][^"']*sandbox-worker\.js["']/)
    }
    const sandbox = await startSandboxInWorker(workerFile, { port: 0 })
    try {
      expect(sandbox.info.password).not.toBe('demo')
      const answer = await fetch(`${sandbox.info.base_url}/publishers/1/`, { headers: { authorization: `Bearer ${sandbox.info.permanent_token}` } })
      expect(answer.status).toBe(200)
    } finally {
      await sandbox.close()
    }
  })
})
