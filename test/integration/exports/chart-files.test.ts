import { promises as fs } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dispatch } from '../../../main/handlers/dispatch'
import { createHandlers } from '../../../main/handlers/handlers'
import { startWebHost, type WebHost } from '../../../main/hosts/web/server'
import { dialogFolders } from '../../../main/services/files/folder-dialogs'
import { createMemoryKeychain } from '../../support/memory-keychain'
import { createTestServices, temporaryFolder } from '../../support/services'
import { makePng } from '../../unit/exports/png-fixture'

const svg = '<svg width="40" height="20" xmlns="http://www.w3.org/2000/svg"><text>Revenue</text></svg>'

describe('exports:saveChart through main’s dispatch', () => {
  it('refuses a path from the page and writes nothing', async () => {
    const services = await createTestServices()
    const handlers = createHandlers(services, { nativeSaveDialog: false })
    const folder = await temporaryFolder()
    for (const smuggled of [{ path: path.join(folder, 'planted.svg') }, { folder }, { fileName: 'planted.svg' }]) {
      const outcome = await dispatch(handlers, 'exports:saveChart', { format: 'svg', name: 'Chart', content: svg, ...smuggled })
      expect(outcome).toMatchObject({ ok: false, error: { code: 'bad_input' } })
    }
    expect(await fs.readdir(folder)).toEqual([])
    await expect(fs.readdir(dialogFolders(services.userDataDir).exports)).rejects.toMatchObject({ code: 'ENOENT' })
    await services.close()
  })

  it('tells the user which file could not be written, never where', async () => {
    const blocker = await temporaryFolder()
    // The "folder" the dialog answers is a file: the write cannot happen.
    await fs.writeFile(path.join(blocker, 'not-a-folder'), '')
    const services = await createTestServices({
      fileDialogs: { chooseSavePath: async () => path.join(blocker, 'not-a-folder', 'chart.svg'), chooseOpenPaths: async () => [] },
    })
    const handlers = createHandlers(services, { nativeSaveDialog: true })
    const outcome = await dispatch(handlers, 'exports:saveChart', { format: 'svg', name: 'Chart', content: svg })
    expect(outcome).toMatchObject({ ok: false, error: { code: 'storage', message: expect.stringContaining('chart.svg') } })
    expect(JSON.stringify(outcome)).not.toContain(blocker)
    await services.close()
  })
})

describe('exports:saveChart in the web host (files go to <userData>/exports)', () => {
  let host: WebHost
  let userDataDir: string
  let invoke: (channel: string, input: unknown) => Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string } }>

  beforeAll(async () => {
    const rendererDir = await temporaryFolder('adops-renderer-')
    await fs.writeFile(
      path.join(rendererDir, 'index.html'),
      '<!doctype html>\n<html>\n  <head>\n    <title>AdOps Desk</title>\n  </head>\n  <body></body>\n</html>\n',
    )
    userDataDir = await temporaryFolder()
    host = await startWebHost({
      port: 0,
      userDataDir,
      rendererDir,
      keychainServiceName: 'AdOps Desk web host chart files test',
      openKeychain: async () => createMemoryKeychain(),
      loadSandbox: () => Promise.reject(new Error('no demo in this test')),
    })
    const origin = new URL(host.url).origin
    const page = await (await fetch(host.url, { headers: { 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' } })).text()
    const token = /<meta name="adops-host-token" content="([0-9a-f]+)"/.exec(page)?.[1] ?? ''
    invoke = async (channel, input) =>
      (
        await fetch(new URL(`/__host/invoke/${channel}`, host.url), {
          method: 'POST',
          headers: { origin, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin', 'x-adops-host-token': token },
          body: JSON.stringify(input),
        })
      ).json() as never
  })
  afterAll(async () => {
    await host.close()
  })

  it('saves a large PNG whole, under a new name each time, and only the base name comes back', async () => {
    // Noise does not compress: about 4.4 MB of image, 5.9 MB of base64, more than a real chart at pixel ratio 2 on a 4K screen.
    const png = makePng(1_100, 1_000, true)
    const content = png.toString('base64')
    expect(content.length).toBeGreaterThan(5_500_000)
    expect(await invoke('exports:saveChart', { format: 'png', name: 'Demo / supply', content })).toEqual({ ok: true, value: { fileName: 'Demo - supply.png' } })
    expect(await invoke('exports:saveChart', { format: 'png', name: 'Demo / supply', content })).toEqual({
      ok: true,
      value: { fileName: 'Demo - supply (2).png' },
    })
    const folder = dialogFolders(userDataDir).exports
    expect((await fs.readdir(folder)).sort()).toEqual(['Demo - supply (2).png', 'Demo - supply.png'])
    expect((await fs.readFile(path.join(folder, 'Demo - supply.png'))).equals(png)).toBe(true)
  })

  it('keeps a climbing name inside the exports folder', async () => {
    const outcome = await invoke('exports:saveChart', { format: 'svg', name: '../../../outside', content: svg })
    expect(outcome).toMatchObject({ ok: true })
    const { fileName } = outcome.value as { fileName: string }
    expect(fileName).not.toMatch(/[/\\]/)
    expect(await fs.readFile(path.join(dialogFolders(userDataDir).exports, fileName), 'utf8')).toBe(svg)
    expect((await fs.readdir(userDataDir)).filter((name) => name.startsWith('outside'))).toEqual([])
    expect((await fs.readdir(path.dirname(userDataDir))).filter((name) => name.startsWith('outside'))).toEqual([])
  })

  it('refuses a body over the host’s 8 MiB with a sentence, writes nothing, and the next call still works', async () => {
    const before = await fs.readdir(dialogFolders(userDataDir).exports).catch(() => [])
    const content = makePng(1_500, 1_500, true).toString('base64')
    expect(content.length).toBeGreaterThan(8 * 1024 * 1024)
    const outcome = await invoke('exports:saveChart', { format: 'png', name: 'Too big', content })
    expect(outcome).toMatchObject({ ok: false, error: { code: 'bad_input', message: expect.stringMatching(/more than 8 MiB/) } })
    expect(await fs.readdir(dialogFolders(userDataDir).exports).catch(() => [])).toEqual(before)
    // The refused body was never read: the host closed that connection, so the next call gets a fresh one.
    expect(await invoke('exports:saveChart', { format: 'svg', name: 'After', content: svg })).toMatchObject({ ok: true })
  })
})
