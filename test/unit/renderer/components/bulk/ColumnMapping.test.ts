// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { mount } from '@vue/test-utils'
import { NSelect } from 'naive-ui'
import type { PlanSummary } from '@contract'
import { kindSpec } from '../../fixtures/entitySpecs'
import ColumnMapping from '../../../../../renderer/src/components/bulk/ColumnMapping.vue'

const plan: PlanSummary = {
  planId: 'plan-1',
  kind: 'brands',
  source: 'import',
  title: 'Import of brands.csv',
  counts: { create: 0, update: 1, delete: 0, unchanged: 0, error: 0 },
  problems: [],
  total: 1,
  fileName: 'brands.csv',
  columns: [{ column: 'Private marketplace', field: 'is_pmp_allowed' }],
  match: 'external_id',
  applying: false,
}

describe('ColumnMapping', () => {
  it('offers to match rows by the fields’ labels, as the forms name them', () => {
    const wrapper = mount(ColumnMapping, { props: { plan, spec: kindSpec('brands')!, disabled: false } })
    const select = wrapper.findAllComponents(NSelect).find((candidate) => candidate.attributes('data-test') === 'match-by')
    expect(select?.props('options')).toEqual([
      { label: 'ID', value: 'id' },
      { label: 'External ID', value: 'external_id' },
    ])
  })
})
