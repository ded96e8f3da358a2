/**
 * Text that steers what shows it: C0 controls (ESC starts a terminal's escape sequences, BEL,
 * a carriage return that writes over the line), DEL, C1 controls (U+009B is a one-byte ESC [),
 * and the bidi marks, embeddings, overrides and isolates that reorder what follows them
 * (U+202E). Tabs and line breaks are left: a table or a second line is meant.
 */
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

/**
 * The text with those characters taken out, for what a terminal or a desktop notification shows
 * (a schedule's name, a platform's sentence). Out, not replaced: "Evil\u001b[2J" reads "Evil[2J".
 */
export function withoutControlCharacters(text: string): string {
  return text.replace(CONTROL_CHARACTERS, '')
}
