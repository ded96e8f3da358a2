import { presetNameSchema } from '@contract'

/**
 * `adopsdesk://preset/<name>` links: pure parsing, so the Electron part (main/electron/deep-links.ts)
 * only receives URLs and forwards names.
 */
export const LINK_SCHEME = 'adopsdesk'

export type PresetLink = { name: string } | { problem: string }

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
  if (kind?.toLowerCase() !== 'preset') return { problem: `The link does not open a preset (adopsdesk://preset/<name>).` }
  // Windows and some browsers add a trailing slash to custom-scheme links.
  const encoded = rest.join('/').replace(/\/+$/, '')
  let name: string
  try {
    name = decodeURIComponent(encoded)
  } catch {
    return { problem: 'The preset name in the link is not properly encoded.' }
  }
  const checked = presetNameSchema.safeParse(name)
  if (!checked.success)
    return {
      problem: name.trim() === '' ? 'The link names no preset.' : `The link's preset name is not valid: ${checked.error.issues[0]?.message ?? 'invalid'}.`,
    }
  return { name: checked.data }
}

/** The link among a process's arguments (a second launch on Windows and Linux passes it as one). */
export function presetLinkInArgv(argv: readonly string[]): string | null {
  return argv.find((argument) => argument.toLowerCase().startsWith(`${LINK_SCHEME}:`)) ?? null
}

/** The link that opens a preset, for "Copy link". */
export function presetLink(name: string): string {
  return `${LINK_SCHEME}://preset/${encodeURIComponent(name)}`
}
