import { promises as fs } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { startWebHost } from '../../../main/hosts/web/server'
import { dialogFolders } from '../../../main/services/files/folder-dialogs'
import { sampleDefinition } from '../../support/channel-samples'
import { createMemoryKeychain } from '../../support/memory-keychain'
import { temporaryFolder } from '../../support/services'

describe('preset files in the web host (no native dialogs)', () => {
  it('exports into <user data>/exports under a new name each time and imports from <user data>/imports; the page names no path', async () => {
    const rendererDir = await temporaryFolder('adops-renderer-')
    await fs.writeFile(
      path.join(rendererDir, 'index.html'),
      '<!doctype html>\n<html>\n  <head>\n    <title>AdOps Desk</title>\n  </head>\n  <body></body>\n</html>\n',
    )
    const userDataDir = await temporaryFolder()
    const host = await startWebHost({
      port: 0,
      userDataDir,
      rendererDir,
      keychainServiceName: 'AdOps Desk web host preset test',
      openKeychain: async () => createMemoryKeychain(),
      loadSandbox: () => Promise.reject(new Error('no demo in this test')),
    })
    try {
      // As the page does: the token comes in the page itself, calls come from the host's own origin.
      const origin = new URL(host.url).origin
      const page = await (await fetch(host.url, { headers: { 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' } })).text()
      const token = /<meta name="adops-host-token" content="([0-9a-f]+)"/.exec(page)?.[1] ?? ''
      expect(token).not.toBe('')
      const invoke = async (channel: string, input: unknown): Promise<unknown> =>
        (
          await fetch(new URL(`/__host/invoke/${channel}`, host.url), {
            method: 'POST',
            headers: { origin, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin', 'x-adops-host-token': token },
            body: JSON.stringify(input),
          })
        ).json()

      expect(await invoke('presets:save', { name: 'Weekly EU', definition: sampleDefinition, replace: false })).toMatchObject({ ok: true })
      expect(await invoke('presets:export', { names: ['Weekly EU'] })).toEqual({ ok: true, value: { saved: true, fileName: 'weekly-eu.json', count: 1 } })
      expect(await invoke('presets:export', { names: ['weekly eu'] })).toEqual({ ok: true, value: { saved: true, fileName: 'weekly-eu (2).json', count: 1 } })
      const { exports, imports } = dialogFolders(userDataDir)
      expect((await fs.readdir(exports)).sort()).toEqual(['weekly-eu (2).json', 'weekly-eu.json'])

      const exported = JSON.parse(await fs.readFile(path.join(exports, 'weekly-eu.json'), 'utf8')) as { name: string }
      await fs.mkdir(imports, { recursive: true })
      await fs.writeFile(path.join(imports, 'colleague.json'), JSON.stringify({ ...exported, name: 'From a colleague' }))
      const imported = (await invoke('presets:import', {})) as { ok: true; value: { imported: Array<{ name: string }> } }
      expect(imported.value.imported.map((preset) => preset.name)).toEqual(['From a colleague'])
      expect(await invoke('presets:get', { name: 'from a colleague' })).toMatchObject({
        ok: true,
        value: { name: 'From a colleague', definition: sampleDefinition },
      })
    } finally {
      await host.close()
    }
  })
})
