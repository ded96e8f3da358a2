import type { EntityKindSpec } from '@contract'

/**
 * What AdOps Desk knows about the built-in kinds: labels, typed fields, required fields
 * (docs/architecture.md: publisher name+url; brand name+is_open_auction_allowed+is_pmp_allowed; ad unit
 * name+publisher; agency name; bidder name) and which kinds point at which. Any other kind is
 * still usable by its path name: its form is inferred from its records.
 */
export const builtInKinds: EntityKindSpec[] = [
  {
    kind: 'publishers',
    label: 'Publishers',
    singular: 'publisher',
    titleField: 'name',
    fields: [
      { name: 'id', label: 'ID', type: 'integer', required: false, readOnly: true },
      { name: 'name', label: 'Name', type: 'text', required: true },
      { name: 'url', label: 'Website', type: 'url', required: true, hint: 'The publisher’s site, e.g. https://news.example.com' },
      { name: 'external_id', label: 'External ID', type: 'text', required: false, hint: 'Your own reference; unique among publishers' },
    ],
    dependents: [{ kind: 'ad_units', field: 'publisher' }],
  },
  {
    kind: 'brands',
    label: 'Brands',
    singular: 'brand',
    titleField: 'name',
    fields: [
      { name: 'id', label: 'ID', type: 'integer', required: false, readOnly: true },
      { name: 'name', label: 'Name', type: 'text', required: true },
      { name: 'is_open_auction_allowed', label: 'Open auction allowed', type: 'boolean', required: true },
      { name: 'is_pmp_allowed', label: 'Private marketplace allowed', type: 'boolean', required: true },
      { name: 'advertiser_domains', label: 'Advertiser domains', type: 'domains', required: false, hint: 'Domain names such as brand.example.com' },
      { name: 'external_id', label: 'External ID', type: 'text', required: false, hint: 'Your own reference; unique among brands' },
    ],
    dependents: [{ kind: 'agencies', field: 'brands' }],
  },
  {
    kind: 'ad_units',
    label: 'Ad units',
    singular: 'ad unit',
    titleField: 'name',
    fields: [
      { name: 'id', label: 'ID', type: 'integer', required: false, readOnly: true },
      { name: 'name', label: 'Name', type: 'text', required: true },
      { name: 'publisher', label: 'Publisher', type: 'reference', references: 'publishers', required: true },
      { name: 'size', label: 'Size', type: 'text', required: false, hint: 'Width x height, e.g. 300x250' },
      { name: 'external_id', label: 'External ID', type: 'text', required: false },
    ],
    dependents: [],
  },
  {
    kind: 'agencies',
    label: 'Agencies',
    singular: 'agency',
    titleField: 'name',
    fields: [
      { name: 'id', label: 'ID', type: 'integer', required: false, readOnly: true },
      { name: 'name', label: 'Name', type: 'text', required: true },
      { name: 'brands', label: 'Brands', type: 'references', references: 'brands', required: false },
      { name: 'external_id', label: 'External ID', type: 'text', required: false },
    ],
    dependents: [],
  },
  {
    kind: 'bidders',
    label: 'Bidders',
    singular: 'bidder',
    titleField: 'name',
    fields: [
      { name: 'id', label: 'ID', type: 'integer', required: false, readOnly: true },
      { name: 'name', label: 'Name', type: 'text', required: true },
      { name: 'endpoint_url', label: 'Endpoint URL', type: 'url', required: false },
      { name: 'is_active', label: 'Active', type: 'boolean', required: false },
      { name: 'external_id', label: 'External ID', type: 'text', required: false },
    ],
    dependents: [],
  },
]

export function kindSpec(kind: string): EntityKindSpec | undefined {
  return builtInKinds.find((spec) => spec.kind === kind)
}
