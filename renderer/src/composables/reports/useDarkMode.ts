import { computed, type ComputedRef } from 'vue'
import { useThemeVars } from 'naive-ui'

/** Whether a CSS color (`#rgb`, `#rrggbb`, `rgb(…)`) is dark, by its perceived lightness. */
export function isDarkColor(color: string): boolean {
  let channels: number[] = []
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim())
  if (hex?.[1]) {
    const digits = hex[1].length === 3 ? [...hex[1]].map((digit) => digit + digit) : (hex[1].match(/../g) ?? [])
    channels = digits.map((pair) => parseInt(pair, 16))
  } else {
    channels = (color.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number)
  }
  if (channels.length < 3) return false
  const [red, green, blue] = channels as [number, number, number]
  return 0.299 * red + 0.587 * green + 0.114 * blue < 128
}

/**
 * Dark mode as the app shows it: read from Naive UI's theme (App.vue picks it from the OS), so
 * the chart follows whatever the app decides without knowing how.
 */
export function useDarkMode(): ComputedRef<boolean> {
  const vars = useThemeVars()
  return computed(() => isDarkColor(vars.value.bodyColor))
}
