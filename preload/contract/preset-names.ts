/**
 * The rule for preset names, in one place for main (the bridge's check, files read from disk,
 * links) and the page (the name field says what is wrong before anything is sent).
 *
 * Names are shown in lists and links, and two names that look the same must be the same preset.
 * So a name is normalised (composed Unicode, every kind of space one plain space, no space at
 * either end), and characters that cannot be seen or that change how the text around them
 * reads are refused rather than kept: controls (tabs, line breaks, C1), format characters
 * (zero-width spaces and joiners, soft hyphens, bidi marks, overrides and isolates such as the
 * right-to-left override), line and paragraph separators, lone surrogates, and the blank
 * letters (Hangul fillers, the combining grapheme joiner) that render as nothing. Refusing the
 * zero-width joiner also refuses emoji sequences built with it: a name is a label, and one that
 * can pass for another is worse than a plainer emoji.
 */

export const PRESET_NAME_MAX_LENGTH = 120

const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\u034f\u115f\u1160\u3164\uffa0]/u

export const HIDDEN_CHARACTERS_SENTENCE =
  'A name cannot hold control characters (tabs, line breaks) or invisible ones (zero-width spaces, text-direction marks); type the name again rather than pasting it'

/** The name as it is kept and compared: NFC, any run of spaces of any kind one plain space, trimmed. */
export function normalisePresetName(text: string): string {
  return text
    .normalize('NFC')
    .replace(/\p{Zs}+/gu, ' ')
    .trim()
}

export function hasHiddenCharacters(text: string): boolean {
  return HIDDEN.test(text)
}

/** What is wrong with a name as typed, as a sentence fragment, or null when it can be saved. */
export function presetNameProblem(text: string): string | null {
  if (hasHiddenCharacters(text)) return HIDDEN_CHARACTERS_SENTENCE
  const name = normalisePresetName(text)
  if (name === '') return 'Required'
  if (name.length > PRESET_NAME_MAX_LENGTH) return `Use at most ${PRESET_NAME_MAX_LENGTH} characters`
  return null
}
