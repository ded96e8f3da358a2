import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { Capabilities, Notice } from '@contract'
import { api, unwrap } from '../api/bridge'
import { useThemeStore } from './theme'

/** App-wide facts from main: version, whether the keychain works, what the host can do, and notices to show. */
export const useAppStore = defineStore('app', () => {
  const version = ref('')
  const platform = ref('')
  const keychainAvailable = ref(true)
  const capabilities = ref<Capabilities>({ nativeSaveDialog: true })
  const notices = ref<Notice[]>([])
  let subscribed = false

  async function load(): Promise<void> {
    const info = await unwrap(api().app.info({}))
    version.value = info.version
    platform.value = info.platform
    keychainAvailable.value = info.keychainAvailable
    capabilities.value = info.capabilities
    notices.value = info.notices
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

  return { version, platform, keychainAvailable, capabilities, notices, load, dismiss }
})
