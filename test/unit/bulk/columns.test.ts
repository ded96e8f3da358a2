import { describe, expect, it } from 'vitest'
import { resolveColumns, suggestMapping } from '../../../main/services/bulk/columns'
import { kindSpec } from '../../../main/services/entities/kinds'

const brands = kindSpec('brands')!

describe('import columns → fields', () => {
  it('maps a column named as the screens name a field, in any case and with or without punctuation', () => {
    const header = ['Private marketplace', 'OPEN AUCTION', 'is_private_marketplace_allowed', 'Advertiser domains:', 'External ID']
    const mapping = suggestMapping(header, brands)
    expect(mapping['Private marketplace']).toBe('is_pmp_allowed')
    expect(mapping['OPEN AUCTION']).toBe('is_open_auction_allowed')
    expect(mapping['is_private_marketplace_allowed']).toBe('is_pmp_allowed')
    expect(mapping['Advertiser domains:']).toBe('advertiser_domains')
    expect(mapping['External ID']).toBe('external_id')
  })

  it('still maps API names and full labels, and leaves a column matching nothing unmapped with its sentence', () => {
    const header = ['is_pmp_allowed', 'Open auction allowed', 'colour']
    expect(suggestMapping(header, brands)).toEqual({ is_pmp_allowed: 'is_pmp_allowed', 'Open auction allowed': 'is_open_auction_allowed', colour: null })
    const resolved = resolveColumns(header, brands)
    expect(resolved.unknown).toEqual(['colour'])
    expect(resolved.problems[0]).toBe(
      'Column "colour" matches no field of brands (ID, Name, Open auction allowed (is_open_auction_allowed), Private marketplace allowed (is_pmp_allowed), Advertiser domains, External ID): rename it to one of them, or leave it out of the import.',
    )
  })
})
