import path from 'node:path'
import type { App } from 'electron'
import { LINK_SCHEME, parsePresetLink, presetLinkInArgv, type PresetLink } from '../services/presets/deep-link'

/**
 * `adopsdesk://preset/<name>` links reach the app three ways: macOS sends `open-url` (also
 * before the app is ready, when a link launched it); Windows and Linux start a second process
 * with the link in its arguments, which the single-instance lock turns into `second-instance`
 * in this one; and a link that launched the app is in its own arguments. Links that come
 * before the page can listen are held until it can.
 */
export interface DeepLinks {
  /** A second launch's arguments (Windows, Linux), as `second-instance` hands them over. */
  fromArgv(argv: readonly string[]): void
  /** The page listens now: links held so far are delivered, later ones at once. */
  deliverTo(deliver: (link: PresetLink) => void): void
}

/** Call before `app.whenReady()`: macOS sends the launching link early. */
export function listenForDeepLinks(app: App, argv: readonly string[]): DeepLinks {
  const held: PresetLink[] = []
  let deliver: ((link: PresetLink) => void) | null = null
  const take = (url: string): void => {
    const link = parsePresetLink(url)
    if (link === null) return
    if (deliver === null) held.push(link)
    else deliver(link)
  }

  // Run from source (`electron .`), the OS must start Electron with the app's folder to reach this app.
  const script = process.defaultApp === true ? process.argv[1] : undefined
  if (script === undefined) app.setAsDefaultProtocolClient(LINK_SCHEME)
  else app.setAsDefaultProtocolClient(LINK_SCHEME, process.execPath, [path.resolve(script)])

  app.on('open-url', (event, url) => {
    event.preventDefault()
    take(url)
  })
  const launching = presetLinkInArgv(argv)
  if (launching !== null) take(launching)

  return {
    fromArgv(secondArgv) {
      const url = presetLinkInArgv(secondArgv)
      if (url !== null) take(url)
    },
    deliverTo(next) {
      deliver = next
      for (const link of held.splice(0)) next(link)
    },
  }
}
