import { promises as fs } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { toErrorShape } from '../../../main/services/errors'
import { createEventHub } from '../../../main/services/events'
import type { AtomicFs } from '../../../main/services/files/atomic'
import { createNotices } from '../../../main/services/notices'
import { createSettingsStore } from '../../../main/services/workspace/settings-store'
import { createThemeService } from '../../../main/services/workspace/theme'
import { temporaryFolder } from '../../support/services'

/** The real file system, except that creating a file fails with `code` (a full disk, a read-only one…). */
function failingFs(code: string): AtomicFs {
  return {
    open: (async (...args: Parameters<typeof fs.open>) => {
      if (args[1] === 'w') throw Object.assign(new Error(`${code}: the system refused, open '${String(args[0])}'`), { code })
      return fs.open(...args)
    }) as typeof fs.open,
    rename: fs.rename,
    rm: fs.rm,
    mkdir: fs.mkdir,
  }
}

describe('app:setTheme when the settings cannot be written (issue 20: a full disk answered "internal")', () => {
  it.each([
    ['ENOSPC', /^The disk is full, so your settings could not be saved and the change was not kept\. Free some space and try again\.$/],
    ['EDQUOT', /^The disk is full/],
    ['EACCES', /^AdOps Desk may not write in its data folder, so your settings could not be saved/],
    ['EROFS', /or that its disk is not read-only, and try again\.$/],
    ['EIO', /^Your settings could not be saved to disk \(EIO\), so the change was not kept\. Check the disk and try again\.$/],
  ])('%s: says so in a sentence, as a storage error, and keeps the theme as it was', async (code, sentence) => {
    const folder = await temporaryFolder()
    const settings = createSettingsStore(folder, createNotices(), { fs: failingFs(code) })
    const theme = createThemeService({ settings, events: createEventHub(), system: null })
    const failure = await theme.set('dark').then(
      () => null,
      (error: unknown) => error,
    )
    // What the page receives: the bridge's error shape.
    const shape = toErrorShape(failure)
    expect(shape.code).toBe('storage')
    expect(shape.message).toMatch(sentence)
    expect(shape.message).not.toContain(folder)
    expect(await theme.state()).toEqual({ setting: 'system', effective: null })
  })
})
