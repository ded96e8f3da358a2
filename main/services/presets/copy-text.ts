/**
 * Text the user copies and may paste into a terminal ("Copy as API request"). Much of it comes
 * from the server: data and key names of the report's `info` (a shared custom field anyone on the
 * platform may have named), chart line values, the report's own names. A paste must run exactly
 * the command we meant, whatever those names hold, so every piece of such text is either inside
 * one single-quoted shell word or written as an escape, never as raw characters that a shell or a
 * terminal acts on.
 */

/**
 * Characters that end a line, steer a terminal or hide from the eye: C0 and C1 controls and DEL
 * (Cc), format characters such as zero-width spaces and the bidi overrides that make a command
 * read differently from what runs (Cf), the Unicode line and paragraph separators (Zl, Zp), lone
 * surrogates, private-use and unassigned code points.
 */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Co}\p{Cn}]/gu

/** Whether the text holds any character `UNSAFE` names. */
export function hasUnsafeCharacters(text: string): boolean {
  return new RegExp(UNSAFE.source, 'u').test(text)
}

/** Text for a human to read in a comment or a sentence: each unsafe character shown as `\u{…}`. */
export function visibleText(text: string): string {
  return text.replace(UNSAFE, (char) => `\\u{${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}}`)
}

/**
 * JSON with every unsafe character written as a `\uXXXX` escape: the same value for any JSON
 * reader (the platform sees the name it sent), but no raw control, separator or bidi character
 * in the copied text. `JSON.stringify` already escapes C0 controls and lone surrogates, not DEL,
 * C1, U+2028/U+2029 or format characters. Outside strings its output is plain ASCII, and its
 * only line feeds are those of the indentation (one inside a string is already `\n`), so the
 * replacement only ever touches string contents.
 */
export function jsonForCopy(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(UNSAFE, (char) =>
    char === '\n' ? char : Array.from({ length: char.length }, (_, index) => `\\u${char.charCodeAt(index).toString(16).padStart(4, '0')}`).join(''),
  )
}

/**
 * One POSIX shell word, single-quoted: nothing inside single quotes is special to sh, bash, zsh
 * or dash but the closing quote, so a quote inside becomes '\''. The text is made visible first,
 * so the word never spans lines nor carries control characters to the terminal.
 */
export function shellQuote(text: string): string {
  return `'${visibleText(text).replace(/'/g, `'\\''`)}'`
}

/**
 * A comment line of a copied script. The text is one quoted word after the `#`, because zsh (the
 * macOS default) treats `#` as a comment at its prompt only with `interactivecomments` set;
 * without it the line runs as a command named `#`, and a bare `$(…)` in it would be expanded.
 * Quoted, it is at worst "command not found: #".
 */
export function shellComment(text: string): string {
  return `# ${shellQuote(text)}`
}
