/**
 * `filter_template` / `data_filter_template`: a boolean expression over 1-based positions,
 * `1 and (2 or not 3)`, with `not` > `and` > `or` and keywords in any case. Checked here so a
 * typo is shown at the field before anything is sent. Like the demo backend, every position
 * must be used: a filter the logic forgets is almost always a mistake.
 */

/** The demo backend's caps (real templates name a handful of filters); deeper nesting would also strain the stack. */
const MAX_DEPTH = 32
const MAX_LEAVES = 100

// Every non-space character matches one group (the last catches strays).
const TOKEN = /\s*(?:(\d+)|(\()|(\))|([A-Za-z]+)|(\S))/y

/** Null when the logic is valid for `count` items, else a sentence saying what is wrong. */
export function checkLogic(text: string, count: number, noun: 'filter' | 'condition'): string | null {
  const tokens: string[] = []
  TOKEN.lastIndex = 0
  for (let match = TOKEN.exec(text); match; match = TOKEN.exec(text)) {
    const token = match[1] ?? match[2] ?? match[3] ?? match[4]?.toLowerCase()
    if (token === undefined) return `Unexpected character "${match[5] ?? ''}": use numbers, and, or, not and parentheses.`
    tokens.push(token)
  }
  if (tokens.length === 0) return null
  if (count === 0) return `There are no ${noun}s for the logic to combine; clear it or add ${noun}s.`
  let position = 0
  let depth = 0
  let leaves = 0
  const used = new Set<number>()

  // Each parser returns an error sentence, or null when it consumed a well-formed part.
  const or = (): string | null => {
    const left = and()
    if (left !== null) return left
    while (tokens[position] === 'or') {
      position++
      const right = and()
      if (right !== null) return right
    }
    return null
  }
  const and = (): string | null => {
    const left = not()
    if (left !== null) return left
    while (tokens[position] === 'and') {
      position++
      const right = not()
      if (right !== null) return right
    }
    return null
  }
  const nested = (parse: () => string | null): string | null => {
    if (++depth > MAX_DEPTH) return `The logic nests deeper than ${MAX_DEPTH} levels of parentheses and not; simplify it.`
    const problem = parse()
    depth--
    return problem
  }
  const not = (): string | null => {
    if (tokens[position] === 'not') {
      position++
      return nested(not)
    }
    return primary()
  }
  const primary = (): string | null => {
    const token = tokens[position++]
    if (token === undefined) return 'The logic ends too early: something is missing after the last word.'
    if (token === '(') {
      const inner = nested(or)
      if (inner !== null) return inner
      if (tokens[position++] !== ')') return 'A "(" is not closed.'
      return null
    }
    if (/^\d+$/.test(token)) {
      const number = Number(token)
      if (number < 1 || number > count) return `${number} does not name a ${noun}: there ${count === 1 ? `is 1 ${noun}` : `are ${count} ${noun}s`}.`
      used.add(number)
      if (++leaves > MAX_LEAVES) return `The logic names more than ${MAX_LEAVES} ${noun}s; simplify it.`
      return null
    }
    return `Unexpected "${token}": expected a ${noun} number or "(".`
  }

  const problem = or()
  if (problem !== null) return problem
  if (position < tokens.length) return `Unexpected "${tokens[position] ?? ''}": join the parts with and or or.`
  for (let number = 1; number <= count; number++) {
    if (!used.has(number)) return `${noun === 'filter' ? 'Filter' : 'Condition'} ${number} is not used in the logic; add it or remove the ${noun}.`
  }
  return null
}
