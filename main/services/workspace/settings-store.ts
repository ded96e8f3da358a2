import path from 'node:path'
import { z } from 'zod'
import { readJsonFileOr, writeJsonFile } from '../files/json-file'
import { createSerialQueue } from '../files/serial-queue'
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
  const serial = createSerialQueue()

  function read(): Promise<Settings> {
    current ??= readJsonFileOr(filePath, settingsSchema, { version: 1, activeProfileId: null }, ({ reason, movedTo }) =>
      notices.add({ level: 'warning', message: `Your app settings could not be read because ${reason}. They were reset; the old file was moved aside.`, details: { movedTo } }),
    )
    return current
  }

  return {
    read,
    update(change) {
      return serial(async () => {
        const next = { ...(await read()), ...change }
        await writeJsonFile(filePath, next)
        current = Promise.resolve(next)
        return next
      })
    },
  }
}
