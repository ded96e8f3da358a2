import { computed } from 'vue'
import { useThemeVars } from 'naive-ui'
import { useDarkMode } from '../reports/useDarkMode'

/**
 * The grid's colours from the app's theme. Rises and falls get colours of their own, darker in
 * light mode and lighter in dark mode than the theme's success and error, so the small text of
 * a change column keeps 4.5:1 contrast even on the colour scale's fill.
 */
export function usePivotPalette() {
  const vars = useThemeVars()
  const dark = useDarkMode()
  return computed(() => ({
    '--pivot-background': vars.value.cardColor,
    '--pivot-border': vars.value.dividerColor,
    '--pivot-grid-line': vars.value.dividerColor,
    '--pivot-focus': vars.value.primaryColor,
    '--pivot-up': dark.value ? '#7ee2a8' : '#0e6b38',
    '--pivot-down': dark.value ? '#ff9c94' : '#a8261d',
  }))
}
