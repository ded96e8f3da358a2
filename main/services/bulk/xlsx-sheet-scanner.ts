import { cutShort } from './xlsx-problem'

/**
 * The XML of a workbook's parts read in one pass each, by index: every search starts where the
 * last one ended, so a tag that is never closed stops the read with a sentence (cutShort) instead
 * of a search to the end of the part for each one, as regular expressions over the rest of the
 * document did (200,000 unclosed rows: a minute). What is read is what the reader did before:
 * element names matched as `<name` followed by a non-word character, an element's text up to the
 * first close tag of its name, attributes by `name="value"`, the five named entities and numeric
 * ones decoded (no DTD, nothing else expanded).
 */

export interface XmlElement {
  /** The start tag's text after its name (a self-closing tag's `/` left out). */
  attributes: string
  /** The text between the start and the end tag; undefined for a self-closing tag. */
  inner: string | undefined
}

const SLASH = 0x2f
const isWordCharacter = (code: number): boolean =>
  (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f

/** Where the next `<tag` start tag begins at or after `from` and where its `>` is; null when there is none. */
function nextStartTag(xml: string, tag: string, from: number, part: string): { start: number; after: number; end: number } | null {
  const open = `<${tag}`
  let at = from
  for (;;) {
    const start = xml.indexOf(open, at)
    if (start === -1) return null
    const after = start + open.length
    if (isWordCharacter(xml.charCodeAt(after))) {
      at = after
      continue
    }
    const end = xml.indexOf('>', after)
    if (end === -1) throw cutShort(part, tag)
    return { start, after, end }
  }
}

/** Each `<tag …/>` or `<tag …>…</tag>` of `xml`, in order; a start tag with no end tag stops the read. */
export function* elements(xml: string, tag: string, part: string): Generator<XmlElement, void> {
  const close = `</${tag}>`
  let at = 0
  for (;;) {
    const found = nextStartTag(xml, tag, at, part)
    if (found === null) return
    const { after, end } = found
    if (end > after && xml.charCodeAt(end - 1) === SLASH) {
      yield { attributes: xml.slice(after, end - 1), inner: undefined }
      at = end + 1
      continue
    }
    const closing = xml.indexOf(close, end + 1)
    if (closing === -1) throw cutShort(part, tag)
    yield { attributes: xml.slice(after, end), inner: xml.slice(end + 1, closing) }
    at = closing + close.length
  }
}

/** The first item, reading no further. */
export function firstOf<T>(items: Iterable<T>): T | undefined {
  for (const item of items) return item
  return undefined
}

/** The attributes of each `<tag …>` start tag, closed or not (workbook.xml's sheets, the relationships). */
export function* startTags(xml: string, tag: string, part: string): Generator<string, void> {
  let at = 0
  for (;;) {
    const found = nextStartTag(xml, tag, at, part)
    if (found === null) return
    yield xml.slice(found.after, xml.charCodeAt(found.end - 1) === SLASH ? found.end - 1 : found.end)
    at = found.end + 1
  }
}

const attributePatterns = new Map<string, RegExp>()

export function attribute(attributes: string, name: string): string | undefined {
  let pattern = attributePatterns.get(name)
  if (pattern === undefined) {
    pattern = new RegExp(`(?:^|\\s)${name}="([^"]*)"`)
    attributePatterns.set(name, pattern)
  }
  return pattern.exec(attributes)?.[1]
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }

export function decodeXml(text: string): string {
  if (!text.includes('&')) return text
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10)
      return Number.isInteger(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
    }
    return ENTITIES[name] ?? whole
  })
}

/**
 * The text of every `<t>` inside `xml` (a shared string's runs, an inline string), phonetic hints
 * (`<rPh>…</rPh>`) left out; a self-closing `<t/>` or `<rPh/>` holds nothing.
 */
export function textOf(xml: string, part: string): string {
  let text = ''
  let at = 0
  for (;;) {
    const open = xml.indexOf('<', at)
    if (open === -1) break
    if (xml.startsWith('rPh', open + 1) && !isWordCharacter(xml.charCodeAt(open + 4))) {
      const end = xml.indexOf('>', open + 4)
      if (end === -1) throw cutShort(part, 'rPh')
      if (xml.charCodeAt(end - 1) === SLASH) {
        at = end + 1
        continue
      }
      const closing = xml.indexOf('</rPh>', end + 1)
      if (closing === -1) throw cutShort(part, 'rPh')
      at = closing + '</rPh>'.length
      continue
    }
    const next = xml[open + 2] ?? ''
    if (xml[open + 1] === 't' && (next === '>' || /\s/.test(next))) {
      const end = xml.indexOf('>', open + 2)
      if (end === -1) throw cutShort(part, 't')
      if (xml.charCodeAt(end - 1) === SLASH) {
        at = end + 1
        continue
      }
      const closing = xml.indexOf('</t>', end + 1)
      if (closing === -1) throw cutShort(part, 't')
      text += xml.slice(end + 1, closing)
      at = closing + '</t>'.length
      continue
    }
    at = open + 1
  }
  return decodeXml(text)
}

/** The shared strings of sharedStrings.xml, in order (`<si/>` is an empty one). */
export function sharedStrings(xml: string, part: string): string[] {
  const strings: string[] = []
  for (const { inner } of elements(xml, 'si', part)) strings.push(inner === undefined ? '' : textOf(inner, part))
  return strings
}

/** The sheet names of workbook.xml, in order (the first is the one read). */
export function sheetNames(workbook: string, part: string): string[] {
  const names: string[] = []
  for (const attributes of startTags(workbook, 'sheet', part)) {
    const name = attribute(attributes, 'name')
    if (name !== undefined) names.push(name)
  }
  return names
}

/** The path of the workbook's first sheet, from workbook.xml and its relationships. */
export function firstSheetPath(workbook: string | undefined, relationships: string | undefined): string {
  const fallback = 'xl/worksheets/sheet1.xml'
  const sheet = workbook === undefined ? undefined : firstOf(startTags(workbook, 'sheet', 'xl/workbook.xml'))
  const id = sheet === undefined ? undefined : attribute(sheet, 'r:id')
  if (id === undefined || relationships === undefined) return fallback
  for (const attributes of startTags(relationships, 'Relationship', 'xl/_rels/workbook.xml.rels')) {
    if (attribute(attributes, 'Id') !== id) continue
    const target = attribute(attributes, 'Target')
    if (target === undefined) return fallback
    return target.startsWith('/') ? target.slice(1) : `xl/${target}`
  }
  return fallback
}
