import type { EntityKindSpec } from '@contract'

/** Kind specs shaped like main's built-in ones, fixed here so renderer tests do not depend on main. */
export const publishersSpec: EntityKindSpec = {
  kind: 'publishers', label: 'Publishers', singular: 'publisher', titleField: 'name',
  fields: [
    { name: 'id', label: 'ID', type: 'integer', required: false, readOnly: true },
    { name: 'name', label: 'Name', type: 'text', required: true },
    { name: 'url', label: 'Website', type: 'url', required: true },
    { name: 'external_id', label: 'External ID', type: 'text', required: false },
  ],
  dependents: [{ kind: 'ad_units', field: 'publisher' }],
}

export const brandsSpec: EntityKindSpec = {
  kind: 'brands', label: 'Brands', singular: 'brand', titleField: 'name',
  fields: [
    { name: 'id', label: 'ID', type: 'integer', required: false, readOnly: true },
    { name: 'name', label: 'Name', type: 'text', required: true },
    { name: 'is_open_auction_allowed', label: 'Open auction allowed', type: 'boolean', required: true },
    { name: 'is_pmp_allowed', label: 'Private marketplace allowed', type: 'boolean', required: true },
    { name: 'advertiser_domains', label: 'Advertiser domains', type: 'domains', required: false },
    { name: 'external_id', label: 'External ID', type: 'text', required: false },
  ],
  dependents: [{ kind: 'agencies', field: 'brands' }],
}

export const adUnitsSpec: EntityKindSpec = {
  kind: 'ad_units', label: 'Ad units', singular: 'ad unit', titleField: 'name',
  fields: [
    { name: 'id', label: 'ID', type: 'integer', required: false, readOnly: true },
    { name: 'name', label: 'Name', type: 'text', required: true },
    { name: 'publisher', label: 'Publisher', type: 'reference', references: 'publishers', required: true },
    { name: 'size', label: 'Size', type: 'text', required: false },
  ],
  dependents: [],
}

export const agenciesSpec: EntityKindSpec = {
  kind: 'agencies', label: 'Agencies', singular: 'agency', titleField: 'name',
  fields: [
    { name: 'id', label: 'ID', type: 'integer', required: false, readOnly: true },
    { name: 'name', label: 'Name', type: 'text', required: true },
    { name: 'brands', label: 'Brands', type: 'references', references: 'brands', required: false },
  ],
  dependents: [],
}
