import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * Names that say what they hold (issue 21, section 3; docs/architecture.md, "Names"). A newcomer
 * finds things from the names alone only while one name means one thing: these checks fail when
 * two exported types share a name anywhere in the app (the demo backend included: a grep for a
 * name must land on one declaration), or when a vague file name comes back under main/services.
 * The sources are read as text, so the check is fast and needs no compiler.
 */
const root = path.join(import.meta.dirname, '..', '..', '..')

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const full = path.join(folder, name)
    if (statSync(full).isDirectory()) return sourceFiles(full)
    return /\.(ts|vue)$/.test(name) && !name.endsWith('.d.ts') ? [full] : []
  })
}

const relative = (file: string): string => path.relative(root, file).replaceAll('\\', '/')

/** `export type Name`, `export interface Name`, `export enum Name` at the start of a line; `export type { … }` re-exports are not declarations. */
const DECLARATION = /^export\s+(?:declare\s+)?(?:type|interface|enum)\s+([A-Za-z_$][\w$]*)/gm

/** Each exported type name with the files declaring it, for the given sources. */
function typeDeclarations(files: ReadonlyArray<readonly [string, string]>): Map<string, string[]> {
  const found = new Map<string, string[]>()
  for (const [file, text] of files) {
    for (const match of text.matchAll(DECLARATION)) {
      const name = match[1] ?? ''
      found.set(name, [...(found.get(name) ?? []), file])
    }
  }
  return found
}

/** Names under main/services that say how a thing travels rather than what it holds. */
const VAGUE_NAMES = new Map([
  ['request.ts', 'name it after what it holds: a wire schema, a platform body, a plan…'],
  ['requests.ts', 'name it after what it holds: a cancellation registry, wire schemas…'],
  ['history.ts', 'say whose history: run-history/ holds report runs, exports/job-history.ts export jobs'],
  ['history', 'say whose history: run-history/ holds report runs, exports/job-history.ts export jobs'],
])

function vagueEntries(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const full = path.join(folder, name)
    const own = VAGUE_NAMES.has(name) ? [`${relative(full)}: ${VAGUE_NAMES.get(name)}`] : []
    return statSync(full).isDirectory() ? [...own, ...vagueEntries(full)] : own
  })
}

describe('names that say what they hold', () => {
  it('no two exported types in main/, preload/, common/ and renderer/src share a name', () => {
    const sources = ['main', 'preload', 'common', 'renderer/src']
      .flatMap((folder) => sourceFiles(path.join(root, folder)))
      .map((file) => [relative(file), readFileSync(file, 'utf8')] as const)
    const declarations = typeDeclarations(sources)
    expect(declarations.size).toBeGreaterThan(100)
    const twice = [...declarations].filter(([, files]) => files.length > 1).map(([name, files]) => `${name}: ${files.join(', ')}`)
    expect(twice).toEqual([])
  })

  it('the check finds a name declared twice, and ignores re-exports', () => {
    const declarations = typeDeclarations([
      ['a.ts', 'export interface OrderTerm {\n  name: string\n}\nexport type { Other } from "./b"\n'],
      ['b.ts', "export type OrderTerm = z.input<typeof schema>\nexport declare type Other = string\n"],
    ])
    expect(declarations.get('OrderTerm')).toEqual(['a.ts', 'b.ts'])
    expect(declarations.get('Other')).toEqual(['b.ts'])
  })

  it('no file under main/services is named request(s).ts or history', () => {
    expect(vagueEntries(path.join(root, 'main', 'services'))).toEqual([])
  })
})
