import path from 'node:path'
import { z } from 'zod'
import { readJsonFile, writeJsonFile } from '../files/json-file'
import type { Notices } from '../notices'

const settingsSchema = z.object({
  version: z.literal(1),
  /** The connection that was active when the app last ran. */
  activeProfileId: z.string().nullable(),
})
export type Settings = z.infer<typeof settingsSchema>

export interface SettingsStore {
  read(): Promise<Settings>
  update(change: Partial<Omit<Settings, 'version'>>): Promise<Settings>
}

/** Small app preferences in settings.json, written atomically; a corrupt file is moved aside and reported. */
export function createSettingsStore(userDataDir: string, notices: Notices): SettingsStore {
  const filePath = path.join(userDataDir, 'settings.json')
  let current: Promise<Settings> | undefined
  let queue: Promise<unknown> = Promise.resolve()

  function read(): Promise<Settings> {
    current ??= readJsonFile(filePath, settingsSchema).then((result) => {
      if (result.state === 'ok') return result.value
      if (result.state === 'corrupt') {
        notices.add({ level: 'warning', message: `Your app settings could not be read because ${result.reason}. They were reset; the old file was moved aside.`, details: { movedTo: result.movedTo } })
      }
      return { version: 1 as const, activeProfileId: null }
    })
    return current
  }

  return {
    read,
    update(change) {
      const run = queue.then(async () => {
        const next = { ...(await read()), ...change }
        await writeJsonFile(filePath, next)
        current = Promise.resolve(next)
        return next
      })
      queue = run.catch(() => undefined)
      return run
    },
  }
}
