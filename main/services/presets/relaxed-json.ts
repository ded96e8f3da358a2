/**
 * JSON as people paste it from the platform's docs and scripts: strict JSON, and also Python
 * and JavaScript literals (single quotes, `True`/`None`, trailing commas, comments, unquoted
 * keys), with a leading `time_series = ` or `var apiParams = ` and a trailing `;`. A bare name
 * used as a value (`"token": token`) becomes a `Variable`, so the caller can say it was not read.
 */

export class Variable {
  constructor(readonly name: string) {}
}

export type Relaxed = string | number | boolean | null | Variable | Relaxed[] | { [key: string]: Relaxed }

export class RelaxedJsonError extends Error {}

const ASSIGNMENT = /^\s*(?:(?:var|let|const)\s+)?[A-Za-z_$][\w$.]*\s*=\s*/

export function parseRelaxedJson(input: string): Relaxed {
  const text = input.replace(/^\uFEFF/, '')
  const assignment = ASSIGNMENT.exec(text)
  let position = assignment ? assignment[0].length : 0

  function fail(message: string): never {
    const before = text.slice(0, position)
    const line = before.split('\n').length
    const column = position - before.lastIndexOf('\n')
    throw new RelaxedJsonError(`${message} at line ${line}, column ${column}`)
  }

  function skipSpace(): void {
    for (;;) {
      const rest = text.slice(position)
      const space = /^\s+/.exec(rest)
      if (space) {
        position += space[0].length
        continue
      }
      if (rest.startsWith('#') || rest.startsWith('//')) {
        const end = text.indexOf('\n', position)
        position = end < 0 ? text.length : end + 1
        continue
      }
      if (rest.startsWith('/*')) {
        const end = text.indexOf('*/', position + 2)
        if (end < 0) fail('A comment is not closed')
        position = end + 2
        continue
      }
      return
    }
  }

  function readString(): string {
    const quote = text[position]
    position += 1
    let value = ''
    for (;;) {
      const char = text[position]
      if (char === undefined) fail('A string is not closed')
      if (char === quote) {
        position += 1
        return value
      }
      if (char === '\n') fail('A string runs past the end of its line')
      if (char !== '\\') {
        value += char
        position += 1
        continue
      }
      const escape = text[position + 1]
      position += 2
      if (escape === 'u' || escape === 'x') {
        const length = escape === 'u' ? 4 : 2
        const hex = text.slice(position, position + length)
        if (!new RegExp(`^[0-9a-fA-F]{${length}}$`).test(hex)) fail(`A \\${escape} escape needs ${length} hex digits`)
        value += String.fromCharCode(parseInt(hex, 16))
        position += length
      } else {
        const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '0': '\0', '/': '/', '\\': '\\', '"': '"', "'": "'" }
        const replaced = escape === undefined ? undefined : simple[escape]
        if (replaced === undefined) fail(`Unknown escape \\${escape ?? ''}`)
        value += replaced
      }
    }
  }

  function readWord(): string {
    const word = /^[A-Za-z_$][\w$.]*/.exec(text.slice(position))
    if (!word) fail(`Unexpected "${text[position] ?? 'end of text'}"`)
    position += word[0].length
    return word[0]
  }

  function readValue(depth: number): Relaxed {
    if (depth > 64) fail('The request is nested too deeply')
    skipSpace()
    const char = text[position]
    if (char === '{') return readObject(depth)
    if (char === '[' || char === '(') return readArray(depth)
    if (char === '"' || char === "'") return readString()
    const number = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/.exec(text.slice(position))
    if (number) {
      position += number[0].length
      return Number(number[0])
    }
    const word = readWord()
    if (word === 'true' || word === 'True') return true
    if (word === 'false' || word === 'False') return false
    if (word === 'null' || word === 'None' || word === 'undefined') return null
    return new Variable(word)
  }

  function readObject(depth: number): { [key: string]: Relaxed } {
    position += 1
    const value: { [key: string]: Relaxed } = {}
    for (;;) {
      skipSpace()
      if (text[position] === '}') {
        position += 1
        return value
      }
      const char = text[position]
      const key = char === '"' || char === "'" ? readString() : readWord()
      skipSpace()
      if (text[position] !== ':') fail(`Expected ":" after "${key}"`)
      position += 1
      // Always an own data key: an assignment would take "__proto__" as the object's prototype, so a pasted
      // {"__proto__": {...}} would lend every field it names to the body without being one of its keys.
      Object.defineProperty(value, key, { value: readValue(depth + 1), writable: true, enumerable: true, configurable: true })
      skipSpace()
      if (text[position] === ',') position += 1
      else if (text[position] !== '}') fail('Expected "," or "}"')
    }
  }

  function readArray(depth: number): Relaxed[] {
    const close = text[position] === '[' ? ']' : ')'
    position += 1
    const value: Relaxed[] = []
    for (;;) {
      skipSpace()
      if (text[position] === close) {
        position += 1
        return value
      }
      value.push(readValue(depth + 1))
      skipSpace()
      if (text[position] === ',') position += 1
      else if (text[position] !== close) fail(`Expected "," or "${close}"`)
    }
  }

  const value = readValue(0)
  skipSpace()
  if (text[position] === ';') {
    position += 1
    skipSpace()
  }
  if (position < text.length) fail('Unexpected text after the request')
  return value
}

/**
 * The request body of a curl command (`-d`, `--data`, `--data-raw`, `--data-binary`, `--json`)
 * and the URL it posts to, read as a shell would split the words. Null when it is no curl command.
 */
export function curlParts(input: string): { body: string | null; url: string | null } | null {
  const text = input.replace(/\\\r?\n/g, ' ').trim()
  if (!/^curl\s/.test(text)) return null
  const words = shellWords(text)
  let body: string | null = null
  let url: string | null = null
  for (let index = 1; index < words.length; index += 1) {
    const word = words[index] as string
    if (/^(-d|--data|--data-raw|--data-binary|--data-ascii|--json)$/.test(word)) {
      body = words[index + 1] ?? null
      index += 1
    } else if (/^(-H|--header|-X|--request|-u|--user|-o|--output|-A|--user-agent|-b|--cookie)$/.test(word)) {
      index += 1
    } else if (!word.startsWith('-') && /^https?:\/\//i.test(word)) {
      url = word
    }
  }
  return { body, url }
}

function shellWords(text: string): string[] {
  const words: string[] = []
  let current: string | null = null
  let index = 0
  while (index < text.length) {
    const char = text[index] as string
    if (/\s/.test(char)) {
      if (current !== null) words.push(current)
      current = null
      index += 1
    } else if (char === "'") {
      const end = text.indexOf("'", index + 1)
      const stop = end < 0 ? text.length : end
      current = (current ?? '') + text.slice(index + 1, stop)
      index = stop + 1
    } else if (char === '"') {
      let value = ''
      index += 1
      while (index < text.length && text[index] !== '"') {
        if (text[index] === '\\' && index + 1 < text.length && '"\\$`'.includes(text[index + 1] as string)) index += 1
        value += text[index]
        index += 1
      }
      current = (current ?? '') + value
      index += 1
    } else if (char === '\\' && index + 1 < text.length) {
      current = (current ?? '') + text[index + 1]
      index += 2
    } else {
      current = (current ?? '') + char
      index += 1
    }
  }
  if (current !== null) words.push(current)
  return words
}
