import { promises as fs } from 'node:fs'
import { z } from 'zod'
import { licenseSchema, type License } from '@contract'
import type { Logger } from './logs/logger'

/** What build/licenses.mjs writes to out/licenses.json. */
export const licensesFileSchema = z.object({ packages: z.array(licenseSchema) })

export interface LicenseList {
  /** The bundled dependencies' licenses; read once, then cached. Empty (and logged) when the file is missing or unreadable. */
  read(): Promise<License[]>
}

export function createLicenseList(file: string | null, log: Logger): LicenseList {
  let loaded: Promise<License[]> | null = null
  async function load(): Promise<License[]> {
    if (file === null) return []
    try {
      return licensesFileSchema.parse(JSON.parse(await fs.readFile(file, 'utf8'))).packages
    } catch (error) {
      log.warn('the licenses list could not be read; About shows none', { error: String(error).slice(0, 300) })
      return []
    }
  }
  return {
    read: () => (loaded ??= load()),
  }
}
