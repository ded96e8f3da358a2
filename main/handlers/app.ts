import type { capabilitiesSchema, ResultCacheState } from '@contract'
import type { z } from 'zod'
import { createLicenseList } from '../services/about'
import { AppError } from '../services/errors'
import type { Services } from '../services'
import type { HandlersFor } from './types'

export type AppFolder = 'data' | 'logs'

/**
 * What the host running main offers (Electron or the web host), which alone knows it. Only
 * `nativeSaveDialog` is required, so a test can build handlers with `{ nativeSaveDialog: false }`.
 */
export interface HostFeatures {
  nativeSaveDialog: boolean
  /** An application menu sends `onMenuCommand` (Electron). */
  nativeMenu?: boolean
  /** Shows one of the app's folders in the OS file manager; absent where there is none (the web host). */
  openFolder?: (folder: AppFolder) => Promise<void>
  /** out/licenses.json, written by build/licenses.mjs; absent: About lists no licenses. */
  licensesFile?: string
  /** The host's runtime versions (process.versions). */
  versions?: { electron?: string | undefined; chrome?: string | undefined; node: string }
}

/** Every capability, as it crosses the bridge. */
export function capabilitiesOf(host: HostFeatures): z.output<typeof capabilitiesSchema> {
  return { nativeSaveDialog: host.nativeSaveDialog, nativeMenu: host.nativeMenu ?? false, openFolders: host.openFolder !== undefined }
}

export function appHandlers(services: Services, host: HostFeatures): HandlersFor<'app'> {
  const capabilities = capabilitiesOf(host)
  const versions = host.versions ?? process.versions
  const licenses = createLicenseList(host.licensesFile ?? null, services.log)

  async function open(folder: AppFolder): Promise<null> {
    if (host.openFolder === undefined)
      throw new AppError('forbidden', "This window cannot open folders on your computer. Use the desktop app, or look in the app's data folder yourself.")
    await host.openFolder(folder)
    return null
  }

  async function resultCacheState(usage: { bytes: number; entries: number }): Promise<ResultCacheState> {
    const { resultCacheMegabytes } = await services.settings.read()
    return { limitMegabytes: resultCacheMegabytes, usedBytes: usage.bytes, entries: usage.entries }
  }

  return {
    'app:info': async () => {
      const [keychainAvailable, theme, settings] = await Promise.all([services.secrets.isKeychainAvailable(), services.theme.state(), services.settings.read()])
      return {
        version: services.environment.version,
        platform: services.environment.platform,
        keychainAvailable,
        capabilities,
        notices: services.notices.list(),
        theme,
        logLevel: settings.logLevel,
      }
    },
    'app:dismissNotice': async ({ id }) => {
      services.notices.dismiss(id)
      return null
    },
    'app:about': async () => ({
      name: 'AdOps Desk',
      version: services.environment.version,
      platform: services.environment.platform,
      electron: versions.electron ?? null,
      chrome: versions.chrome ?? null,
      node: versions.node,
      dataFolder: "the app's data folder",
      licenses: await licenses.read(),
    }),
    'app:setTheme': ({ theme }) => services.theme.set(theme),
    'app:setLogLevel': async ({ level }) => {
      await services.settings.update({ logLevel: level })
      services.log.setLevel(level)
      services.log.info(`log level set to ${level}`)
      return null
    },
    'app:resultCache': async () => resultCacheState(await services.results.usage()),
    'app:setResultCacheLimit': async ({ megabytes }) => {
      await services.settings.update({ resultCacheMegabytes: megabytes })
      const usage = await services.results.trim()
      services.log.info(`result cache limit set to ${megabytes} MB`, { usedBytes: usage.bytes, entries: usage.entries })
      return resultCacheState(usage)
    },
    'app:alertLagHours': async () => ({ hours: (await services.settings.read()).alertLagHours }),
    'app:setAlertLagHours': async ({ hours }) => {
      const { alertLagHours } = await services.settings.update({ alertLagHours: hours })
      services.log.info(`alert data lag set to ${alertLagHours} hours`)
      return { hours: alertLagHours }
    },
    'app:openDataFolder': () => open('data'),
    'app:openLogsFolder': () => open('logs'),
    'app:reportRendererError': async ({ kind, message, stack }) => {
      services.errors.report('renderer', { kind, message, stack })
      return null
    },
  }
}
