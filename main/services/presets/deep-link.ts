import { presetNameSchema } from '@contract'

/**
 * `adopsdesk://preset/<name>` and `adopsdesk://board/<name>` links: pure parsing, so the Electron
 * part (main/electron/deep-links.ts) only receives URLs and forwards names. Boards share the
 * presets' name rule, so one parser serves both.
 */
export const LINK_SCHEME = 'adopsdesk'

/** `name`: a preset to open in Reports; `board`: a board to open in Boards. */
export type PresetLink = { name: string } | { board: string } | { problem: string }

/** The preset a link names, or why it names none; null for a URL that is not one of our links at all. */
export function parsePresetLink(url: string): PresetLink | null {
  const text = url.trim()
  if (!text.toLowerCase().startsWith(`${LINK_SCHEME}:`)) return null
  let parsed: URL
  try {
    parsed = new URL(text)
  } catch {
    return { problem: 'The link could not be read.' }
  }
  // adopsdesk://preset/<name>: "preset" is the host; a link written adopsdesk:preset/<name> has it in the path.
  const route = parsed.host !== '' ? [parsed.host, ...parsed.pathname.split('/').slice(1)] : parsed.pathname.split('/')
  const [kind, ...rest] = route
  const target = kind?.toLowerCase()
  if (target !== 'preset' && target !== 'board')
    return { problem: `The link does not open a preset or a board (adopsdesk://preset/<name>, adopsdesk://board/<name>).` }
  const noun = target
  // Windows and some browsers add a trailing slash to custom-scheme links.
  const encoded = rest.join('/').replace(/\/+$/, '')
  let name: string
  try {
    name = decodeURIComponent(encoded)
  } catch {
    return { problem: `The ${noun} name in the link is not properly encoded.` }
  }
  const checked = presetNameSchema.safeParse(name)
  if (!checked.success)
    return {
      problem: name.trim() === '' ? `The link names no ${noun}.` : `The link's ${noun} name is not valid: ${checked.error.issues[0]?.message ?? 'invalid'}.`,
    }
  return noun === 'board' ? { board: checked.data } : { name: checked.data }
}

/** The link among a process's arguments (a second launch on Windows and Linux passes it as one). */
export function presetLinkInArgv(argv: readonly string[]): string | null {
  return argv.find((argument) => argument.toLowerCase().startsWith(`${LINK_SCHEME}:`)) ?? null
}

/** The link that opens a board. */
export function boardLink(name: string): string {
  return `${LINK_SCHEME}://board/${encodeURIComponent(name)}`
}

/** The link that opens a preset, for "Copy link". */
export function presetLink(name: string): string {
  return `${LINK_SCHEME}://preset/${encodeURIComponent(name)}`
}
