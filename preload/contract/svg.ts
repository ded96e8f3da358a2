/**
 * What an SVG chart file may hold (`exports:saveChart`). The page renders the SVG (ECharts'
 * server-side renderer) and main writes it to the user's disk, where a browser may later open
 * it as a document of its own: anything that runs or loads there (a script, an `onload=`, a
 * `<foreignObject>` with an iframe, a `javascript:` link, an image or stylesheet from the
 * network) would run with the file's origin. So the text is read with a small strict XML
 * tokenizer and judged against an allow-list of what ECharts draws; anything else refuses the
 * whole file with a sentence (nothing is stripped, so what is saved is exactly what was drawn).
 *
 * Strict on purpose: a document this reader is unsure about (a DOCTYPE that could declare
 * entities, a processing instruction, a namespace prefix on an element, a malformed tag) is
 * refused rather than guessed at, so a browser's XML parser can never see structure this one
 * did not. Linear in the text's length: a 30 MB chart is one pass.
 */

const SVG_NAMESPACE = 'http://www.w3.org/2000/svg'
const XLINK_NAMESPACE = 'http://www.w3.org/1999/xlink'

/** The elements a chart is drawn with (zrender's SVG painter and its defs), and the usual harmless companions. */
const ELEMENTS = new Set([
  'svg',
  'g',
  'path',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'text',
  'tspan',
  'defs',
  'clipPath',
  'linearGradient',
  'radialGradient',
  'stop',
  'pattern',
  'filter',
  'feDropShadow',
  'title',
  'desc',
  'use',
  'image',
  'style',
])

/** Geometry and presentation attributes: none of them loads or runs anything (a `url(...)` in a value is judged apart). */
const ATTRIBUTES = new Set([
  ...['id', 'class', 'style', 'version', 'baseProfile', 'viewBox', 'preserveAspectRatio', 'transform', 'xml:space'],
  ...['x', 'y', 'x1', 'y1', 'x2', 'y2', 'cx', 'cy', 'r', 'rx', 'ry', 'fx', 'fy', 'dx', 'dy', 'd', 'points', 'width', 'height', 'pathLength'],
  ...['fill', 'fill-opacity', 'fill-rule', 'stroke', 'stroke-width', 'stroke-opacity', 'stroke-linecap', 'stroke-linejoin'],
  ...['stroke-miterlimit', 'stroke-dasharray', 'stroke-dashoffset', 'opacity', 'paint-order', 'clip-path', 'clip-rule', 'filter'],
  ...['pointer-events', 'visibility', 'display', 'color', 'shape-rendering', 'image-rendering', 'vector-effect'],
  ...['font-family', 'font-size', 'font-weight', 'font-style', 'text-anchor', 'dominant-baseline', 'alignment-baseline'],
  ...['letter-spacing', 'text-decoration'],
  ...['gradientUnits', 'gradientTransform', 'spreadMethod', 'offset', 'stop-color', 'stop-opacity'],
  ...['patternUnits', 'patternContentUnits', 'patternTransform', 'filterUnits', 'primitiveUnits', 'stdDeviation'],
  ...['flood-color', 'flood-opacity'],
])
/** zrender's own metadata on each shape (`ecmeta_series_index="4"`): plain data. */
const META_ATTRIBUTE = /^ecmeta_[a-z0-9_]+$/
/** A reference to an element of the same file: `#zr0-c1`. */
const LOCAL_REFERENCE = /^#[A-Za-z_][\w.:-]*$/
/** The only images a chart file may embed: PNG or JPEG bytes inside the file itself. */
const EMBEDDED_IMAGE = /^data:image\/(png|jpeg);base64,[A-Za-z0-9+/=\s]*$/

const NAME = /[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?/y
const ATTRIBUTE = /[ \t\r\n]+([A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?)[ \t\r\n]*=[ \t\r\n]*(?:"([^"<]*)"|'([^'<]*)')/y
const TAG_END = /[ \t\r\n]*(\/?)>/y
const CLOSE_TAG = /<\/([A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?)[ \t\r\n]*>/y
const XML_DECLARATION = /^\uFEFF?<\?xml([ \t\r\n]+[A-Za-z]+[ \t\r\n]*=[ \t\r\n]*("[^"]*"|'[^']*'))*[ \t\r\n]*\?>/
const REFERENCE = /&(#[0-9]{1,7}|#x[0-9A-Fa-f]{1,6}|lt|gt|amp|quot|apos);/g
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }

/** Text or an attribute value with its character references read, as the browser will see it; null when an `&` is not a reference XML knows. */
function decoded(raw: string): string | null {
  if (!raw.includes('&')) return raw
  if (raw.replace(REFERENCE, '').includes('&')) return null
  let bad = false
  const text = raw.replace(REFERENCE, (_whole, body: string) => {
    if (!body.startsWith('#')) return NAMED[body] ?? ''
    const code = body.startsWith('#x') ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10)
    if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) bad = true
    return bad ? '' : String.fromCodePoint(code)
  })
  return bad ? null : text
}

/** A `url(...)` anywhere but to `#id` (CSS is case-insensitive and lets quotes and spaces in). */
function loadsFromOutside(value: string): boolean {
  return /url\s*\(/i.test(value.replace(/url\(\s*(['"]?)#[\w.:-]+\1\s*\)/gi, ''))
}

/** Why CSS (a `style=` or a `<style>` element) could load or run something, or null. */
export function cssProblem(css: string): string | null {
  // An escape can spell any word (`u\72l(`), so none is needed by a chart nor taken.
  if (css.includes('\\')) return 'has CSS with an escape, which a chart never has'
  if (/@(?!(-webkit-)?keyframes\b)/i.test(css)) return 'has a CSS @ rule (such as @import), which a chart never has'
  if (loadsFromOutside(css)) return 'has CSS that loads something from outside the file'
  if (/(image-set|image|cross-fade|element|expression|src)\s*\(|-moz-binding|behavior\s*:/i.test(css)) return 'has CSS that loads or runs something'
  return null
}

/** Why one attribute of an element may not be in a chart file, or null. */
function attributeProblem(element: string, name: string, value: string): string | null {
  if (name === 'xmlns') return value === SVG_NAMESPACE ? null : `puts <${element}> in another namespace than SVG's`
  if (name === 'xmlns:xlink') return value === XLINK_NAMESPACE ? null : 'declares the xlink prefix for another namespace'
  if (name.startsWith('xmlns:')) return `declares the namespace prefix ${name.slice(6)}, which a chart never does`
  if (/^on/i.test(name)) return `has an event handler (${name}=) on <${element}>, which runs script`
  if (name === 'href' || name === 'xlink:href') {
    if (LOCAL_REFERENCE.test(value) && element !== 'image') return null
    if (element === 'image' && EMBEDDED_IMAGE.test(value)) return null
    return `has a link on <${element}> to something outside the file (only #id references and embedded PNG or JPEG images are kept)`
  }
  if (!ATTRIBUTES.has(name) && !META_ATTRIBUTE.test(name)) return `has the attribute ${name}= on <${element}>, which a chart never has`
  if (name === 'style') return cssProblem(value)
  if (loadsFromOutside(value)) return `has ${name}= on <${element}> referring to something outside the file`
  return null
}

/** Why an element's name may not be in a chart file, or null. */
function elementProblem(name: string): string | null {
  if (name.includes(':')) return `has the element <${name}> with a namespace prefix, which a chart never has`
  if (name === 'script') return 'holds a script, which a chart never does'
  if (!ELEMENTS.has(name)) return `holds a <${name}> element, which a chart never does`
  return null
}

/** Why text is not an SVG document a chart file may be, or null. */
export function svgProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'holds a NUL character'
  const declaration = XML_DECLARATION.exec(text)
  let at = declaration ? declaration[0].length : text.startsWith('\uFEFF') ? 1 : 0
  /** Open elements, innermost last. */
  const open: string[] = []
  let rootSeen = false
  let styleText: string[] | null = null

  while (at < text.length) {
    const next = text.indexOf('<', at)
    const end = next === -1 ? text.length : next
    if (end > at) {
      const raw = text.slice(at, end)
      if (open.length === 0) {
        if (raw.trim() !== '') return rootSeen ? 'has text after </svg>' : 'does not have an <svg> root element'
      } else {
        const content = decoded(raw)
        if (content === null) return 'has an & that is not a character reference XML knows'
        styleText?.push(content)
      }
      at = end
      continue
    }
    if (text.startsWith('<!--', at)) {
      const close = text.indexOf('-->', at + 4)
      if (close === -1) return 'has a comment cut short'
      if (text.slice(at + 4, close).includes('--')) return 'has a comment with -- inside it'
      at = close + 3
      continue
    }
    if (text.startsWith('<![CDATA[', at)) {
      if (open.length === 0) return 'has character data outside the <svg> element'
      const close = text.indexOf(']]>', at + 9)
      if (close === -1) return 'has a CDATA section cut short'
      styleText?.push(text.slice(at + 9, close))
      at = close + 3
      continue
    }
    if (/^<!DOCTYPE/i.test(text.slice(at, at + 9))) return 'holds a DOCTYPE, which a chart never does (it could declare entities)'
    if (text.startsWith('<?', at)) return 'holds a processing instruction (such as a stylesheet link), which a chart never does'
    if (text.startsWith('</', at)) {
      CLOSE_TAG.lastIndex = at
      const close = CLOSE_TAG.exec(text)
      if (close === null) return 'has a malformed closing tag'
      if (open.at(-1) !== close[1]) return `closes </${close[1]}> where <${open.at(-1) ?? 'nothing'}> is open`
      open.pop()
      if (close[1] === 'style' && styleText !== null) {
        const problem = cssProblem(styleText.join(''))
        if (problem !== null) return problem
        styleText = null
      }
      at = CLOSE_TAG.lastIndex
      continue
    }
    // An opening tag.
    NAME.lastIndex = at + 1
    const nameMatch = NAME.exec(text)
    if (nameMatch === null) return 'has a malformed tag'
    const element = nameMatch[0]
    if (open.length === 0) {
      if (rootSeen) return 'has a second element after </svg>'
      if (element !== 'svg') return 'does not have an <svg> root element'
    }
    const problem = elementProblem(element)
    if (problem !== null) return problem
    if (styleText !== null) return 'has an element inside <style>'
    at = NAME.lastIndex
    const names = new Set<string>()
    for (;;) {
      ATTRIBUTE.lastIndex = at
      const attribute = ATTRIBUTE.exec(text)
      if (attribute === null) break
      const [, name = '', doubleQuoted, singleQuoted] = attribute
      if (names.has(name)) return `has the attribute ${name}= twice on <${element}>`
      names.add(name)
      const value = decoded(doubleQuoted ?? singleQuoted ?? '')
      if (value === null) return `has an & that is not a character reference XML knows in ${name}=`
      const attributeIssue = attributeProblem(element, name, value)
      if (attributeIssue !== null) return attributeIssue
      at = ATTRIBUTE.lastIndex
    }
    TAG_END.lastIndex = at
    const tagEnd = TAG_END.exec(text)
    if (tagEnd === null) return `has a malformed <${element}> tag`
    if (open.length === 0 && !names.has('xmlns')) return 'is not in the SVG namespace'
    at = TAG_END.lastIndex
    rootSeen = true
    if (tagEnd[1] === '/') {
      if (open.length === 0) return 'is an empty <svg/>, which no chart is'
      continue
    }
    open.push(element)
    if (element === 'style') styleText = []
  }
  if (!rootSeen) return 'does not have an <svg> root element'
  if (open.length > 0) return 'does not end with </svg>'
  return null
}
