/**
 * The filter-logic field (`1 and (2 or not 3)`): a boolean expression over 1-based filter
 * positions, checked as the user types so a typo is named before anything is sent. The grammar
 * is the platform's (and the sandbox's): precedence not > and > or, keywords in any case, and
 * every filter must appear (a forgotten filter is almost always a mistake).
 */

interface Token {
  text: string
  /** 1-based character where the token starts, for the message. */
  at: number
}

const TOKEN = /\s*(?:(\d+)|(\()|(\))|([A-Za-z]+)|(\S))/y

function tokenize(text: string): Token[] | string {
  const tokens: Token[] = []
  TOKEN.lastIndex = 0
  for (let match = TOKEN.exec(text); match; match = TOKEN.exec(text)) {
    const at = match.index + match[0].length - match[0].trimStart().length + 1
    if (match[5] !== undefined) return `Unexpected “${match[5]}” at character ${at}: use numbers, and, or, not and parentheses.`
    const word = match[4]?.toLowerCase()
    if (word !== undefined && word !== 'and' && word !== 'or' && word !== 'not')
      return `Unexpected “${match[4] ?? ''}” at character ${at}: only and, or and not are understood.`
    tokens.push({ text: match[1] ?? match[2] ?? match[3] ?? word ?? '', at })
  }
  return tokens
}

/**
 * Null when `text` is a valid expression over `count` filters (or empty: all filters apply),
 * else a sentence that says what is wrong and where.
 */
export function checkFilterLogic(text: string, count: number): string | null {
  if (text.trim() === '') return null
  if (count === 0) return 'There are no filters to combine: add filters first, or clear this field.'
  const tokens = tokenize(text)
  if (typeof tokens === 'string') return tokens
  let position = 0
  const used = new Set<number>()

  class Failure extends Error {}
  const fail = (message: string): never => {
    throw new Failure(message)
  }
  const describe = (token: Token | undefined): string => (token ? `“${token.text}” at character ${token.at}` : 'the end')

  const parseOr = (): void => {
    parseAnd()
    while (tokens[position]?.text === 'or') {
      position++
      parseAnd()
    }
  }
  const parseAnd = (): void => {
    parseNot()
    while (tokens[position]?.text === 'and') {
      position++
      parseNot()
    }
  }
  const parseNot = (): void => {
    if (tokens[position]?.text === 'not') {
      position++
      parseNot()
      return
    }
    parsePrimary()
  }
  const parsePrimary = (): void => {
    const token = tokens[position++]
    if (token === undefined) fail('The expression ends too early: a filter number or “(” is missing.')
    else if (token.text === '(') {
      parseOr()
      const closing = tokens[position++]
      if (closing?.text !== ')') fail(`A “(” at character ${token.at} is not closed.`)
    } else if (/^\d+$/.test(token.text)) {
      const number = Number(token.text)
      if (number < 1 || number > count)
        fail(`Filter ${number} at character ${token.at} does not exist: there ${count === 1 ? 'is 1 filter' : `are ${count} filters`}.`)
      used.add(number)
    } else fail(`Expected a filter number or “(” but found ${describe(token)}.`)
  }

  try {
    parseOr()
    if (position < tokens.length) fail(`Unexpected ${describe(tokens[position])}.`)
    for (let number = 1; number <= count; number++) {
      if (!used.has(number)) fail(`Filter ${number} is not used: every filter must appear in the logic.`)
    }
    return null
  } catch (error) {
    if (error instanceof Failure) return error.message
    throw error
  }
}
