import type { Entity, EntityField, EntityId, EntityKindSpec } from '@contract'
import { domainProblem } from '../../../../common/domains'

/**
 * The entity form's rules as plain functions: how entity values become form values and back,
 * what the client checks before sending (required fields, domains, numbers, JSON) and which
 * fields the user changed.
 */

export type Id = EntityId
export type FormValue = string | number | boolean | null | Id[] | string[]
export type FormModel = Record<string, FormValue>
/** How the form ended: what the screen says, and which row it shows next. */
export interface FormOutcome {
  kind: 'created' | 'saved' | 'deleted' | 'unchanged'
  entity: Entity | null
}
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue }

/** For a kind whose records we have never seen: the whole entity as one JSON text. */
export const WHOLE_ENTITY = '__entity__'

/** Domains are checked as the import planner checks them (common/domains.ts). */
export { domainProblem, isValidDomain } from '../../../../common/domains'

export function editableFields(spec: EntityKindSpec): EntityField[] {
  return spec.fields.filter((field) => !field.readOnly && field.name !== 'id')
}

/** The form's fields: the editable ones, or, for a kind never seen yet, the whole entity as one JSON field. */
export function formFields(spec: EntityKindSpec): EntityField[] {
  const editable = editableFields(spec)
  if (editable.length > 0) return editable
  return [
    {
      name: WHOLE_ENTITY,
      label: `${spec.singular} as JSON`,
      type: 'json',
      required: true,
      hint: `No ${spec.label.toLowerCase()} were seen yet, so their fields are unknown: enter the whole entity as a JSON object.`,
    },
  ]
}

function isId(value: unknown): value is Id {
  return typeof value === 'number' || (typeof value === 'string' && value !== '')
}

export function toFormValue(field: EntityField, value: unknown): FormValue {
  switch (field.type) {
    case 'text':
    case 'url':
      return value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value)
    case 'integer':
    case 'number':
      return typeof value === 'number' ? value : null
    case 'boolean':
      return value === true
    case 'domains':
      return Array.isArray(value) ? value.map(String) : []
    case 'reference':
      return isId(value) ? value : null
    case 'references':
      return Array.isArray(value) ? value.filter(isId) : []
    case 'json':
      return value === undefined ? '' : JSON.stringify(value, null, 2)
  }
}

export type Converted = { ok: true; value: JsonValue | undefined } | { ok: false; error: string }

/** A form value as the entity holds it; `undefined` means "leave the field out". */
export function fromFormValue(field: EntityField, value: FormValue): Converted {
  switch (field.type) {
    case 'text':
    case 'url':
      return { ok: true, value: typeof value === 'string' ? value.trim() : '' }
    case 'integer':
    case 'number': {
      if (value === null || value === '') return { ok: true, value: undefined }
      const number = Number(value)
      if (!Number.isFinite(number)) return { ok: false, error: 'Enter a number' }
      if (field.type === 'integer' && !Number.isInteger(number)) return { ok: false, error: 'Enter a whole number' }
      return { ok: true, value: number }
    }
    case 'boolean':
      return { ok: true, value: value === true }
    case 'domains':
      return { ok: true, value: Array.isArray(value) ? value.map((domain) => String(domain).trim()).filter((domain) => domain !== '') : [] }
    case 'reference':
      return { ok: true, value: isId(value) ? value : undefined }
    case 'references':
      return { ok: true, value: Array.isArray(value) ? value.filter(isId) : [] }
    case 'json': {
      const text = typeof value === 'string' ? value.trim() : ''
      if (text === '') return { ok: true, value: undefined }
      try {
        return { ok: true, value: JSON.parse(text) as JsonValue }
      } catch (error) {
        return { ok: false, error: `Not valid JSON: ${error instanceof Error ? error.message : String(error)}` }
      }
    }
  }
}

export function modelFromEntity(spec: EntityKindSpec, entity: Record<string, unknown> | null): FormModel {
  const model: FormModel = {}
  const fields = editableFields(spec)
  if (fields.length === 0) {
    const rest = { ...(entity ?? {}) }
    delete rest['id']
    model[WHOLE_ENTITY] = JSON.stringify(rest, null, 2)
    return model
  }
  for (const field of fields) model[field.name] = toFormValue(field, entity?.[field.name])
  return model
}

function isEmpty(value: JsonValue | undefined): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)
}

/** Client-side checks; field name → message. An empty result means the form may be sent. */
export function checkForm(spec: EntityKindSpec, model: FormModel): Record<string, string> {
  const errors: Record<string, string> = {}
  const fields = editableFields(spec)
  if (fields.length === 0) {
    const whole = fromFormValue({ name: WHOLE_ENTITY, label: 'Entity', type: 'json', required: true }, model[WHOLE_ENTITY] ?? '')
    if (!whole.ok) errors[WHOLE_ENTITY] = whole.error
    else if (whole.value === undefined || typeof whole.value !== 'object' || whole.value === null || Array.isArray(whole.value))
      errors[WHOLE_ENTITY] = 'Enter the entity as a JSON object, e.g. {"name": "…"}'
    return errors
  }
  for (const field of fields) {
    const converted = fromFormValue(field, model[field.name] ?? null)
    if (!converted.ok) {
      errors[field.name] = converted.error
      continue
    }
    if (field.required && field.type !== 'boolean' && isEmpty(converted.value)) {
      errors[field.name] = `${field.label} is required`
      continue
    }
    if (field.type === 'domains' && Array.isArray(converted.value)) {
      const problems = converted.value
        .map((domain) => {
          const problem = domainProblem(String(domain))
          return problem ? `${String(domain)}: ${problem}` : null
        })
        .filter((problem): problem is string => problem !== null)
      const seen = new Set<string>()
      for (const domain of converted.value) {
        const key = String(domain).toLowerCase()
        if (seen.has(key)) problems.push(`${String(domain)} is listed twice`)
        seen.add(key)
      }
      if (problems.length > 0) errors[field.name] = problems.join('; ')
    }
  }
  return errors
}

export function sameValue(left: unknown, right: unknown): boolean {
  if (left === right) return true
  if (left === null || right === null || typeof left !== 'object' || typeof right !== 'object') return false
  if (Array.isArray(left) !== Array.isArray(right)) return false
  if (Array.isArray(left) && Array.isArray(right)) return left.length === right.length && left.every((item, index) => sameValue(item, right[index]))
  const a = left as Record<string, unknown>
  const b = right as Record<string, unknown>
  const keys = new Set([...Object.keys(a), ...Object.keys(b)])
  for (const key of keys) if (!sameValue(a[key], b[key])) return false
  return true
}

/** The fields the user changed, as entity values (what `entities:update` takes as `changes`). */
export function computeChanges(spec: EntityKindSpec, original: Record<string, unknown> | null, model: FormModel): Record<string, JsonValue> {
  const changes: Record<string, JsonValue> = {}
  const fields = editableFields(spec)
  if (fields.length === 0) {
    const whole = fromFormValue({ name: WHOLE_ENTITY, label: 'Entity', type: 'json', required: true }, model[WHOLE_ENTITY] ?? '')
    if (!whole.ok || whole.value === undefined || typeof whole.value !== 'object' || whole.value === null || Array.isArray(whole.value)) return changes
    for (const [key, value] of Object.entries(whole.value)) {
      if (key !== 'id' && !sameValue(original?.[key], value)) changes[key] = value
    }
    return changes
  }
  for (const field of fields) {
    const converted = fromFormValue(field, model[field.name] ?? null)
    if (!converted.ok) continue
    const before = original?.[field.name]
    if (converted.value === undefined) {
      continue
    }
    if (sameValue(before, converted.value)) continue
    // A field the record never had, left empty, is not a change.
    if (before === undefined && isEmpty(converted.value) && field.type !== 'boolean') continue
    changes[field.name] = converted.value
  }
  return changes
}

/** The body of a create: every field with a value (required booleans included). */
export function entityForCreate(spec: EntityKindSpec, model: FormModel): Record<string, JsonValue> {
  return computeChanges(spec, null, model)
}

/** True when the form differs from the entity it was opened with. */
export function isDirty(spec: EntityKindSpec, original: Record<string, unknown> | null, model: FormModel): boolean {
  return !sameValue(model, modelFromEntity(spec, original))
}

/** Shows any entity value in a sentence or a table cell. */
export function describeValue(value: unknown): string {
  if (value === undefined || value === null || value === '') return '(empty)'
  if (typeof value === 'boolean') return value ? 'Yes' : 'No'
  if (Array.isArray(value))
    return value.length === 0 ? '(none)' : value.map((item) => (typeof item === 'object' ? JSON.stringify(item) : String(item))).join(', ')
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}
