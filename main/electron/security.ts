import type { Session, Shell, WebContents } from 'electron'

/** Links the app may open in the user's browser; everything else is refused. */
const EXTERNAL_ALLOW_LIST = new Set(['adops-desk.invalid'])

export function isAllowedExternalUrl(url: string): boolean {
  try {
    const parsed = new URL(url)
    return parsed.protocol === 'https:' && EXTERNAL_ALLOW_LIST.has(parsed.hostname)
  } catch {
    return false
  }
}

/**
 * Every web contents the app creates: no navigation away from the app, no new windows
 * (allow-listed links go to the OS browser instead), no <webview>.
 */
export function hardenWebContents(contents: WebContents, shell: Shell): void {
  contents.on('will-navigate', (event) => event.preventDefault())
  contents.on('will-redirect', (event) => event.preventDefault())
  contents.on('will-attach-webview', (event) => event.preventDefault())
  contents.setWindowOpenHandler(({ url }) => {
    if (isAllowedExternalUrl(url)) void shell.openExternal(url)
    return { action: 'deny' }
  })
}

/** No permission (camera, notifications, geolocation…) is ever granted to page content. */
export function hardenSession(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))
  session.setPermissionCheckHandler(() => false)
}
