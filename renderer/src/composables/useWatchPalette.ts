import { computed } from 'vue'
import { useThemeVars } from 'naive-ui'
import { useThemeStore } from '../stores/theme'

/** Theme colors the schedules and alerts screens share, so light and dark follow the app (and warnings stay readable on both). */
export function useWatchPalette() {
  const vars = useThemeVars()
  const theme = useThemeStore()
  return computed(() => ({
    '--watch-error': theme.effective === 'dark' ? '#f28b9b' : '#c0284a',
    '--watch-warning-text': theme.effective === 'dark' ? '#f2c97d' : '#8a5a00',
    '--watch-border': vars.value.dividerColor,
    '--watch-panel': vars.value.cardColor,
    '--watch-primary': vars.value.primaryColor,
  }))
}
