import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { Capabilities, LogLevel, Notice, ResultCacheState } from '@contract'
import { api, unwrap } from '../api/bridge'
import { useThemeStore } from './theme'

/** App-wide facts from main: version, whether the keychain works, what the host can do, and notices to show. */
export const useAppStore = defineStore('app', () => {
  const version = ref('')
  const platform = ref('')
  const keychainAvailable = ref(true)
  const capabilities = ref<Capabilities>({ nativeSaveDialog: true })
  const notices = ref<Notice[]>([])
  const logLevel = ref<LogLevel>('info')
  /** Read when Settings asks: counting the saved results reads their folder. */
  const resultCache = ref<ResultCacheState | null>(null)
  /** The About dialog (AppShell shows it; the menu, the palette and Settings open it). */
  const aboutOpen = ref(false)
  let subscribed = false

  async function load(): Promise<void> {
    const info = await unwrap(api().app.info({}))
    version.value = info.version
    platform.value = info.platform
    keychainAvailable.value = info.keychainAvailable
    capabilities.value = info.capabilities
    notices.value = info.notices
    logLevel.value = info.logLevel
    useThemeStore().load(info.theme)
    if (!subscribed) {
      subscribed = true
      api().onNotice((notice) => {
        if (!notices.value.some((existing) => existing.id === notice.id)) notices.value.push(notice)
      })
    }
  }

  async function dismiss(id: string): Promise<void> {
    notices.value = notices.value.filter((notice) => notice.id !== id)
    await unwrap(api().app.dismissNotice({ id }))
  }

  async function setLogLevel(level: LogLevel): Promise<void> {
    await unwrap(api().app.setLogLevel({ level }))
    logLevel.value = level
  }

  async function loadResultCache(): Promise<void> {
    resultCache.value = await unwrap(api().app.resultCache({}))
  }

  async function setResultCacheLimit(megabytes: number): Promise<void> {
    resultCache.value = await unwrap(api().app.setResultCacheLimit({ megabytes }))
  }

  async function openFolder(folder: 'data' | 'logs'): Promise<void> {
    await unwrap(folder === 'data' ? api().app.openDataFolder({}) : api().app.openLogsFolder({}))
  }

  return {
    version,
    platform,
    keychainAvailable,
    capabilities,
    notices,
    logLevel,
    resultCache,
    aboutOpen,
    load,
    dismiss,
    setLogLevel,
    loadResultCache,
    setResultCacheLimit,
    openFolder,
  }
})
