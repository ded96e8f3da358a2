import { describe, expect, it } from 'vitest'
import {
  WHOLE_ENTITY,
  checkForm,
  computeChanges,
  describeValue,
  domainProblem,
  entityForCreate,
  fromFormValue,
  isDirty,
  isValidDomain,
  modelFromEntity,
} from '../../../../../renderer/src/domain/entities/entityForm'
import { inferSpec } from '../../../../../renderer/src/domain/entities/inferSpec'
import { buildColumns } from '../../../../../renderer/src/domain/entities/columns'
import { adUnitsSpec, agenciesSpec, brandsSpec, publishersSpec } from '../../fixtures/entitySpecs'

const brand = { id: 7, name: 'Acme Shoes', is_open_auction_allowed: true, is_pmp_allowed: false, advertiser_domains: ['acme.example'], external_id: 'BRD-7' }

describe('domain validation', () => {
  it('accepts host names and refuses URLs, spaces and bare words', () => {
    for (const good of ['acme.example', 'shop.acme-shoes.co.uk', 'xn--bcher-kva.example', 'A.B.COM']) expect(isValidDomain(good), good).toBe(true)
    for (const bad of ['acme', 'http://acme.example', 'acme .example', '-acme.example', 'acme.example/path', 'acme..example', 'acme.e1', ''])
      expect(isValidDomain(bad), bad).toBe(false)
    expect(domainProblem('https://acme.example')).toMatch(/without http/)
    expect(domainProblem('acme example.com')).toMatch(/spaces/)
    expect(domainProblem('acme')).toMatch(/Not a valid domain/)
    expect(domainProblem('acme.example')).toBeNull()
  })
})

describe('required checks', () => {
  it('names every missing required field; booleans are never missing', () => {
    const model = modelFromEntity(brandsSpec, null)
    expect(checkForm(brandsSpec, model)).toEqual({ name: 'Name is required' })
    model.name = '   '
    expect(checkForm(brandsSpec, model)).toEqual({ name: 'Name is required' })
    model.name = 'New brand'
    expect(checkForm(brandsSpec, model)).toEqual({})
    expect(checkForm(publishersSpec, modelFromEntity(publishersSpec, null))).toEqual({ name: 'Name is required', url: 'Website is required' })
    expect(checkForm(adUnitsSpec, { name: 'x', publisher: null, size: '' })).toEqual({ publisher: 'Publisher is required' })
  })

  it('checks each domain of the list, and duplicates', () => {
    const model = modelFromEntity(brandsSpec, brand)
    model.advertiser_domains = ['acme.example', 'not a domain', 'ACME.example']
    const errors = checkForm(brandsSpec, model)
    expect(errors.advertiser_domains).toContain('not a domain')
    expect(errors.advertiser_domains).toContain('listed twice')
  })

  it('checks numbers and JSON', () => {
    const spec = inferSpec('creatives', [{ id: 1, name: 'a', width: 300, ratio: 1.5, tags: ['x'] }])
    const model = modelFromEntity(spec, { id: 1, name: 'a', width: 300, ratio: 1.5, tags: ['x'] })
    model.tags = '[1, 2'
    expect(checkForm(spec, model).tags).toMatch(/Not valid JSON/)
    expect(fromFormValue({ name: 'width', label: 'Width', type: 'integer', required: false }, 2.5)).toEqual({ ok: false, error: 'Enter a whole number' })
  })
})

describe('changes', () => {
  it('are only the fields the user edited, as entity values', () => {
    const model = modelFromEntity(brandsSpec, brand)
    expect(computeChanges(brandsSpec, brand, model)).toEqual({})
    expect(isDirty(brandsSpec, brand, model)).toBe(false)
    model.name = '  Acme Boots '
    model.advertiser_domains = ['acme.example', 'boots.acme.example', '  ']
    model.is_pmp_allowed = true
    expect(computeChanges(brandsSpec, brand, model)).toEqual({
      name: 'Acme Boots',
      advertiser_domains: ['acme.example', 'boots.acme.example'],
      is_pmp_allowed: true,
    })
    expect(isDirty(brandsSpec, brand, model)).toBe(true)
  })

  it('leave out optional fields the record never had and the user left empty', () => {
    const unit = { id: 3, name: 'u', publisher: 4 }
    const model = modelFromEntity(adUnitsSpec, unit)
    expect(model).toEqual({ name: 'u', publisher: 4, size: '' })
    expect(computeChanges(adUnitsSpec, unit, model)).toEqual({})
    model.publisher = 9
    expect(computeChanges(adUnitsSpec, unit, model)).toEqual({ publisher: 9 })
  })

  it('for a create include every value, required booleans too', () => {
    const model = modelFromEntity(brandsSpec, null)
    model.name = 'Fresh'
    model.advertiser_domains = ['fresh.example']
    expect(entityForCreate(brandsSpec, model)).toEqual({
      name: 'Fresh',
      is_open_auction_allowed: false,
      is_pmp_allowed: false,
      advertiser_domains: ['fresh.example'],
    })
    const agency = modelFromEntity(agenciesSpec, null)
    agency.name = 'Ag'
    agency.brands = [3, 1]
    expect(entityForCreate(agenciesSpec, agency)).toEqual({ name: 'Ag', brands: [3, 1] })
  })

  it('of an unknown kind with no records go through one JSON editor', () => {
    const spec = inferSpec('creatives', [])
    const model = modelFromEntity(spec, null)
    expect(Object.keys(model)).toEqual([WHOLE_ENTITY])
    expect(checkForm(spec, model)).toEqual({})
    model[WHOLE_ENTITY] = '[1]'
    expect(checkForm(spec, model)[WHOLE_ENTITY]).toMatch(/JSON object/)
    model[WHOLE_ENTITY] = '{"name": "Banner", "width": 300}'
    expect(entityForCreate(spec, model)).toEqual({ name: 'Banner', width: 300 })
  })
})

describe('inferred specs and columns', () => {
  it('types fields from the records and picks a title', () => {
    const spec = inferSpec('deal_ids', [
      { id: 1, title: 'A', floor: 1.25, seats: 3, open: true, landing: 'https://a.example', extra: { a: 1 }, note: null },
      { id: 2, title: 'B', floor: 2, seats: 4, open: false, landing: '', extra: null, note: 'n' },
    ])
    const types = Object.fromEntries(spec.fields.map((field) => [field.name, field.type]))
    expect(types).toEqual({ id: 'integer', title: 'text', floor: 'number', seats: 'integer', open: 'boolean', landing: 'url', extra: 'json', note: 'text' })
    expect(spec.fields[0]).toMatchObject({ name: 'id', readOnly: true })
    expect(spec).toMatchObject({ label: 'Deal ids', singular: 'deal id', titleField: 'title' })
  })

  it('show reference names instead of ids', () => {
    const names = new Map([
      ['4', 'Daily Planet'],
      ['5', 'Gotham Gazette'],
    ])
    const columns = buildColumns(agenciesSpec, () => names)
    const brandsColumn = columns.find((column) => column.key === 'brands')
    expect(brandsColumn?.text({ id: 1, name: 'x', brands: [4, 5, 6] })).toBe('Daily Planet, Gotham Gazette, #6')
    expect(brandsColumn?.refIds?.({ id: 1, brands: [4, 5] })).toEqual(['4', '5'])
    expect(columns.map((column) => column.key)).toEqual(['id', 'name', 'brands'])
  })

  it('describe values for people', () => {
    expect(describeValue(true)).toBe('Yes')
    expect(describeValue(['a.example', 'b.example'])).toBe('a.example, b.example')
    expect(describeValue('')).toBe('(empty)')
  })
})
