import type { EntityField } from '@contract'
import { domainProblem } from '../../../common/domains'

/**
 * Stage 3 of an import: one cell read as its field's type. A list holds its values separated by
 * `;` (a JSON array is accepted too); a boolean is true/false, 1/0 or yes/no; an empty cell is
 * `empty` and the planner decides what it means (leave as is, or an error where the field is
 * required). A cell that looks like a spreadsheet formula (=, +, -, @ first) is refused: a
 * spreadsheet would run it when the data is opened again, and it is never what a field means —
 * except a negative number in a number field, which is only a number.
 */

export type CellReading = { outcome: 'value'; value: unknown } | { outcome: 'empty' } | { outcome: 'error'; reason: string }

const FORMULA_START = new Set(['=', '+', '-', '@'])
const INTEGER = /^-?\d+$/
const NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/
const BOOLEANS = new Map<string, boolean>([
  ['true', true],
  ['false', false],
  ['1', true],
  ['0', false],
  ['yes', true],
  ['no', false],
])

const error = (reason: string): CellReading => ({ outcome: 'error', reason })
const value = (read: unknown): CellReading => ({ outcome: 'value', value: read })

function integerOf(text: string): number | null {
  if (!INTEGER.test(text)) return null
  const read = Number(text)
  return Number.isSafeInteger(read) ? read : null
}

/** The values of a list cell: a JSON array, or values separated by `;` (spaces around them dropped, empty ones too). */
function listOf(text: string): unknown[] | string {
  if (!text.startsWith('[')) {
    return text
      .split(';')
      .map((part) => part.trim())
      .filter((part) => part !== '')
  }
  try {
    const parsed: unknown = JSON.parse(text)
    return Array.isArray(parsed) ? parsed : 'it starts with [ but is not a JSON array'
  } catch {
    return 'it starts with [ but is not a JSON array'
  }
}

function readList(field: EntityField, text: string): CellReading {
  const list = listOf(text)
  if (typeof list === 'string') return error(`${field.name}: ${list}; write the values separated by ; or as a JSON array such as ["a.com", "b.com"].`)
  if (field.type === 'references') {
    const ids = list.map((item) => (typeof item === 'number' ? (Number.isSafeInteger(item) && item > 0 ? item : null) : integerOf(String(item).trim())))
    const bad = list.find((_item, index) => ids[index] === null || (ids[index] ?? 0) <= 0)
    if (bad !== undefined) return error(`${field.name}: "${String(bad)}" is not an id; write the ids of ${field.references ?? 'the entities'} separated by ;.`)
    return value(ids)
  }
  const domains = list.map((item) => (typeof item === 'string' ? item.trim().toLowerCase() : item))
  for (const domain of domains) {
    const problem = typeof domain === 'string' ? domainProblem(domain) : 'Not a domain name'
    if (problem !== null) return error(`${field.name}: "${String(domain)}": ${problem}.`)
  }
  return value(domains)
}

export function readCell(field: EntityField, raw: string): CellReading {
  const text = raw.trim()
  if (text === '') return { outcome: 'empty' }
  const numeric = (field.type === 'integer' || field.type === 'number') && NUMBER.test(text)
  if (FORMULA_START.has(text[0] as string) && !numeric) {
    return error(
      `${field.name}: "${text.slice(0, 40)}" starts with ${text[0] as string} like a spreadsheet formula; formulas are never imported, so write the value itself.`,
    )
  }
  switch (field.type) {
    case 'text':
      return value(text)
    case 'url': {
      let url: URL | null = null
      try {
        url = new URL(text)
      } catch {
        url = null
      }
      if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
        return error(`${field.name}: "${text.slice(0, 80)}" is not a web address; write it with http:// or https://.`)
      }
      return value(text)
    }
    case 'integer': {
      const read = integerOf(text)
      return read === null ? error(`${field.name}: "${text.slice(0, 40)}" is not a whole number.`) : value(read)
    }
    case 'number': {
      const read = Number(text)
      return NUMBER.test(text) && Number.isFinite(read) ? value(read) : error(`${field.name}: "${text.slice(0, 40)}" is not a number.`)
    }
    case 'boolean': {
      const read = BOOLEANS.get(text.toLowerCase())
      return read === undefined ? error(`${field.name}: "${text.slice(0, 40)}" is not true or false (also 1/0, yes/no).`) : value(read)
    }
    case 'reference': {
      const read = integerOf(text)
      return read === null || read <= 0
        ? error(`${field.name}: "${text.slice(0, 40)}" is not the id of one of ${field.references ?? 'the entities'}.`)
        : value(read)
    }
    case 'domains':
    case 'references':
      return readList(field, text)
    case 'json':
      try {
        return value(JSON.parse(text))
      } catch {
        return error(`${field.name}: the cell is not valid JSON.`)
      }
  }
}
