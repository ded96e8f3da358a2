/**
 * filter_template / data_filter_template: a boolean expression over 1-based filter positions,
 * e.g. `1 and (2 or not 3)`. Precedence: not > and > or. Keywords are case-insensitive.
 */

export type TemplateNode =
  { kind: 'leaf'; position: number } | { kind: 'not'; operand: TemplateNode } | { kind: 'and' | 'or'; left: TemplateNode; right: TemplateNode }

export class TemplateError extends Error {}

/*
 * Templates are parsed and evaluated on the server's one thread, and evaluation walks every
 * record once per leaf: without caps a 56 KB template (or a deep one, which also exhausts the
 * stack) would stall every other request. Real templates name a handful of filters.
 */
/** Longest template text, in characters. */
export const MAX_TEMPLATE_CHARACTERS = 2_000
/** Deepest nesting of parentheses and `not`s. */
export const MAX_TEMPLATE_DEPTH = 32
/** Most filter positions one template may name (a position named twice counts twice). */
export const MAX_TEMPLATE_LEAVES = 100

// Every non-space character matches a group (the last catches strays), so the scan only stops at the end.
const TOKEN = /\s*(?:(\d+)|(\()|(\))|([A-Za-z]+)|(\S))/y

export function parseTemplate(text: string, filterCount: number): TemplateNode {
  if (text.length > MAX_TEMPLATE_CHARACTERS) {
    throw new TemplateError(`the expression is ${text.length} characters long; at most ${MAX_TEMPLATE_CHARACTERS} are allowed`)
  }
  const tokens: string[] = []
  TOKEN.lastIndex = 0
  for (let match = TOKEN.exec(text); match; match = TOKEN.exec(text)) {
    const token = match[1] ?? match[2] ?? match[3] ?? match[4]?.toLowerCase()
    if (token === undefined) throw new TemplateError(`unexpected character '${match[5] ?? ''}'`)
    tokens.push(token)
  }
  let position = 0
  let depth = 0
  let leaves = 0
  const used = new Set<number>()
  const nested = <Node>(parse: () => Node): Node => {
    if (++depth > MAX_TEMPLATE_DEPTH) throw new TemplateError(`the expression nests deeper than ${MAX_TEMPLATE_DEPTH} levels of parentheses and not`)
    const node = parse()
    depth--
    return node
  }

  const parseOr = (): TemplateNode => {
    let left = parseAnd()
    while (tokens[position] === 'or') {
      position++
      left = { kind: 'or', left, right: parseAnd() }
    }
    return left
  }
  const parseAnd = (): TemplateNode => {
    let left = parseNot()
    while (tokens[position] === 'and') {
      position++
      left = { kind: 'and', left, right: parseNot() }
    }
    return left
  }
  const parseNot = (): TemplateNode => {
    if (tokens[position] === 'not') {
      position++
      return { kind: 'not', operand: nested(parseNot) }
    }
    return parsePrimary()
  }
  const parsePrimary = (): TemplateNode => {
    const token = tokens[position++]
    if (token === undefined) throw new TemplateError('the expression ends too early')
    if (token === '(') {
      const inner = nested(parseOr)
      if (tokens[position++] !== ')') throw new TemplateError("a '(' is not closed")
      return inner
    }
    if (/^\d+$/.test(token)) {
      const number = Number(token)
      if (number < 1 || number > filterCount) {
        throw new TemplateError(`position ${number} does not name a filter (there ${filterCount === 1 ? 'is 1' : `are ${filterCount}`})`)
      }
      if (++leaves > MAX_TEMPLATE_LEAVES) throw new TemplateError(`the expression names more than ${MAX_TEMPLATE_LEAVES} filter positions`)
      used.add(number)
      return { kind: 'leaf', position: number }
    }
    throw new TemplateError(`unexpected '${token}'`)
  }

  const tree = parseOr()
  if (position < tokens.length) throw new TemplateError(`unexpected '${tokens[position] ?? ''}'`)
  for (let number = 1; number <= filterCount; number++) {
    // A filter the template forgets is almost always a client bug: say so instead of ignoring it.
    if (!used.has(number)) throw new TemplateError(`filter ${number} is not used`)
  }
  return tree
}

/** Evaluates over per-record 0/1 vectors (one per filter), returning a new vector. */
export function evaluateVector(node: TemplateNode, leaves: readonly Uint8Array[], length: number): Uint8Array {
  switch (node.kind) {
    case 'leaf':
      return (leaves[node.position - 1] ?? new Uint8Array(length)).slice()
    case 'not': {
      const result = evaluateVector(node.operand, leaves, length)
      for (let index = 0; index < length; index++) result[index] = 1 - (result[index] ?? 0)
      return result
    }
    case 'and':
    case 'or': {
      const left = evaluateVector(node.left, leaves, length)
      const right = evaluateVector(node.right, leaves, length)
      if (node.kind === 'and') for (let index = 0; index < length; index++) left[index] = (left[index] ?? 0) & (right[index] ?? 0)
      else for (let index = 0; index < length; index++) left[index] = (left[index] ?? 0) | (right[index] ?? 0)
      return left
    }
  }
}

/** Evaluates for one row, asking `leaf(position)` (1-based) lazily. */
export function evaluateScalar(node: TemplateNode, leaf: (position: number) => boolean): boolean {
  switch (node.kind) {
    case 'leaf':
      return leaf(node.position)
    case 'not':
      return !evaluateScalar(node.operand, leaf)
    case 'and':
      return evaluateScalar(node.left, leaf) && evaluateScalar(node.right, leaf)
    case 'or':
      return evaluateScalar(node.left, leaf) || evaluateScalar(node.right, leaf)
  }
}
