import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * One date format on every screen and in every notification (issue 39, item 8): the page and the
 * notifications write dates only through common/date-format.ts. This finds the ways they were
 * written by hand ("12/7/2026, 10:45:11 AM", "2026-12-07 10:37:39" beside "Dec 7, 2026, 09:57 AM"):
 * Date's locale methods, Intl.DateTimeFormat, date/time styles, an ISO string cut and its T replaced.
 * A number's `toLocaleString('en-US')` is the number formatter's, not a date.
 */
const root = path.join(import.meta.dirname, '..', '..', '..')
const SHARED = 'common/date-format.ts'
/** Where dates reach a person: the page, and main's notifications. */
const ROOTS = ['renderer/src', 'common', 'main/services/alerts', 'main/electron']
const HAND_MADE: ReadonlyArray<readonly [string, RegExp]> = [
  ['toLocaleString() (use formatDateTime, or formatCount for a number)', /\.toLocaleString\((?!'en-US'\))/],
  ['toLocaleDateString', /\.toLocaleDateString\(/],
  ['toLocaleTimeString', /\.toLocaleTimeString\(/],
  ['Intl.DateTimeFormat', /Intl\.DateTimeFormat\b/],
  ['a date or time style', /\b(dateStyle|timeStyle)\s*:/],
  ['an ISO string with its T replaced', /replace\(\s*'T'\s*,\s*' '\s*\)/],
]

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const full = path.join(folder, name)
    if (statSync(full).isDirectory()) return sourceFiles(full)
    return /\.(ts|vue)$/.test(name) ? [full] : []
  })
}

const files = ROOTS.flatMap((folder) => sourceFiles(path.join(root, folder)))
  .map((file) => path.relative(root, file).split(path.sep).join('/'))
  .filter((file) => file !== SHARED)

describe('one date format', () => {
  it('finds the sources it reads', () => {
    expect(files.length).toBeGreaterThan(200)
  })

  it('formats dates for a person only through common/date-format.ts', () => {
    const found = files.flatMap((file) =>
      readFileSync(path.join(root, file), 'utf8')
        .split('\n')
        .flatMap((line, index) => HAND_MADE.filter(([, pattern]) => pattern.test(line)).map(([what]) => `${file}:${index + 1}: ${what}`)),
    )
    expect(found).toEqual([])
  })
})
