import { normalisePresetName } from '@contract'

/**
 * Preset names: unique without regard to case ("Weekly EU" and "weekly eu" are one preset), and
 * the file names made from them: readable in a folder listing and in git, safe on every OS.
 */

/**
 * The form two names are compared in: the contract's normal form (NFC, every kind of space one
 * plain space, trimmed; see preset-names.ts), without regard to case. "Weekly\u00a0EU" and
 * "weekly  eu" are the same preset as "Weekly EU".
 */
export function nameKey(name: string): string {
  return normalisePresetName(name).toLocaleLowerCase('en-US')
}

/**
 * The form two file names are compared in, as a case-insensitive disk would: macOS (APFS, HFS+)
 * and Windows (NTFS) by default hold one file for "Weekly-EU.json" and "weekly-eu.json", and
 * APFS also one for the composed and decomposed spellings of a name. Folding through upper and
 * then lower case catches the letters whose lower cases differ but whose upper case is one
 * ("ſ" and "s"), as those file systems' case tables do.
 */
export function fileNameKey(fileName: string): string {
  return fileName.normalize('NFD').toUpperCase().toLowerCase()
}

/** Names Windows reserves for devices, whatever the extension. */
const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)$/

/**
 * A file stem from a name: ASCII letters and digits, runs of anything else as one dash, at most
 * 60 characters ("Weekly EU: revenue" → "weekly-eu-revenue"). Never empty, never a dot file,
 * never a path. Different names may share a stem; the store adds "-2", "-3"… then.
 */
export function fileStem(name: string): string {
  const ascii = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '')
  if (ascii === '' || RESERVED.test(ascii)) return ascii === '' ? 'preset' : `${ascii}-preset`
  return ascii
}

/**
 * The first of `wanted`, `wanted (2)`… (or the given pattern) that `isTaken` refuses. Within one
 * import, `resumeFrom` remembers where the search for each wanted name ended, so a bundle holding
 * the same name a thousand times tries each candidate once, not once per copy (quadratic before).
 */
export function freeName(
  wanted: string,
  isTaken: (name: string) => boolean,
  variant: (attempt: number) => string = (attempt) => `${wanted} (${attempt})`,
  resumeFrom?: Map<string, number>,
): string {
  if (!isTaken(wanted)) return wanted
  for (let attempt = resumeFrom?.get(wanted) ?? 2; ; attempt += 1) {
    const candidate = variant(attempt).slice(0, 120).trim()
    if (!isTaken(candidate)) {
      resumeFrom?.set(wanted, attempt + 1)
      return candidate
    }
  }
}
