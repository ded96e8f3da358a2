import type { NativeTheme } from 'electron'
import type { SystemTheme } from '../services/workspace/theme'

/** The theme service's OS side over Electron's nativeTheme: setting themeSource also switches the page's prefers-color-scheme. */
export function systemThemeOf(nativeTheme: NativeTheme): SystemTheme {
  return {
    apply(setting) {
      nativeTheme.themeSource = setting
    },
    prefersDark: () => nativeTheme.shouldUseDarkColors,
    onChange(listener) {
      nativeTheme.on('updated', listener)
      return () => nativeTheme.off('updated', listener)
    },
  }
}
