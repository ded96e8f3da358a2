/**
 * A small YAML emitter for reporting responses (plain data: objects, arrays, strings, numbers,
 * booleans, null). The real service answers YAML unless asked for JSON, so the sandbox does too.
 *
 * Strings are always double-quoted with JSON escapes, which YAML 1.2 reads the same way; this
 * sidesteps every plain-scalar ambiguity ("yes", "12", "2024-01-01", leading dashes…).
 */

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/
const RESERVED = /^(?:true|false|null|yes|no|on|off|y|n|~)$/i

function scalar(value: unknown): string {
  if (value === null || value === undefined) return 'null'
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return '.nan'
    if (!Number.isFinite(value)) return value > 0 ? '.inf' : '-.inf'
    return String(value)
  }
  return JSON.stringify(String(value))
}

function key(name: string): string {
  return PLAIN_KEY.test(name) && !RESERVED.test(name) ? name : JSON.stringify(name)
}

function isContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  return typeof value === 'object' && value !== null
}

function isEmpty(value: Record<string, unknown> | unknown[]): boolean {
  return Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0
}

function lines(value: unknown, indent: number, output: string[]): void {
  const pad = ' '.repeat(indent)
  if (Array.isArray(value)) {
    for (const item of value) {
      if (isContainer(item) && !isEmpty(item)) {
        // Render the item one level deeper, then put the dash where its first line's indent was.
        const start = output.length
        lines(item, indent + 2, output)
        output[start] = `${pad}- ${(output[start] ?? '').slice(indent + 2)}`
      } else {
        output.push(`${pad}- ${isContainer(item) ? (Array.isArray(item) ? '[]' : '{}') : scalar(item)}`)
      }
    }
    return
  }
  if (isContainer(value)) {
    for (const [name, item] of Object.entries(value)) {
      if (item === undefined) continue
      if (isContainer(item) && !isEmpty(item)) {
        output.push(`${pad}${key(name)}:`)
        lines(item, indent + 2, output)
      } else {
        output.push(`${pad}${key(name)}: ${isContainer(item) ? (Array.isArray(item) ? '[]' : '{}') : scalar(item)}`)
      }
    }
    return
  }
  output.push(`${pad}${scalar(value)}`)
}

export function toYaml(value: unknown): string {
  if (isContainer(value) && isEmpty(value)) return Array.isArray(value) ? '[]\n' : '{}\n'
  const output: string[] = []
  lines(value, 0, output)
  return `${output.join('\n')}\n`
}
