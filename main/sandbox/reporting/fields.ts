import type { FactTable } from '../data/facts'

/** Sums kept per group; every data field is computed from these. */
export type BaseMetric = 'requests' | 'impressions' | 'clicks' | 'bids' | 'wins' | 'revenue' | 'margin' | 'my_margin_estimate'

export interface ServedDataField {
  name: string
  description: string
  display_type: 'int' | 'float' | 'percent'
  display_precision: number
  display_pattern: string | null
  is_optional: 0 | 1
  show_percents: 0 | 1 | 2
  formula: string | null
  formula_description: string | null
  access: 'shared' | 'private' | null
  annotation: string
}

export interface DataField {
  info: ServedDataField
  /** Base sums the value needs. */
  inputs: readonly BaseMetric[]
  /** Value from the input sums (`second` is 0 for single-input fields). */
  compute(first: number, second: number): number
  /** Only the user who created a private field sees it. */
  owner: string | null
}

function info(partial: Partial<ServedDataField> & Pick<ServedDataField, 'name' | 'description' | 'display_type'>): ServedDataField {
  return {
    display_precision: partial.display_type === 'int' ? 0 : 2,
    display_pattern: null,
    is_optional: 0,
    show_percents: 0,
    formula: null,
    formula_description: null,
    access: null,
    annotation: '',
    ...partial,
  }
}

function sum(name: BaseMetric, description: string, type: 'int' | 'float', extra: Partial<ServedDataField> = {}, owner: string | null = null): DataField {
  return { info: info({ name, description, display_type: type, ...extra }), inputs: [name], compute: (first) => first, owner }
}

/** A ratio computed from aggregated sums (never an average of per-record ratios); 0 when the denominator is 0. */
function ratio(
  name: string,
  description: string,
  type: 'float' | 'percent',
  numerator: BaseMetric,
  denominator: BaseMetric,
  factor: number,
  formulaDescription: string,
): DataField {
  return {
    info: info({
      name,
      description,
      display_type: type,
      is_optional: 1,
      formula: `${numerator} / ${denominator} * ${factor}`,
      formula_description: formulaDescription,
    }),
    inputs: [numerator, denominator],
    compute: (numerator, denominator) => (denominator === 0 ? 0 : (numerator / denominator) * factor),
    owner: null,
  }
}

export const DEMO_USER = 'demo'

export const DATA_FIELDS: readonly DataField[] = [
  sum('requests', 'Ad requests', 'int', { show_percents: 1 }),
  sum('impressions', 'Impressions', 'int', { show_percents: 2 }),
  sum('clicks', 'Clicks', 'int'),
  sum('bids', 'Bids received', 'int', { is_optional: 1 }),
  sum('wins', 'Auctions won', 'int', { is_optional: 1 }),
  sum('revenue', 'Revenue, USD', 'float', { show_percents: 1, display_pattern: '$#,##0.00' }),
  ratio('ecpm', 'Effective CPM, USD', 'float', 'revenue', 'impressions', 1000, 'Revenue per thousand impressions'),
  ratio('ctr', 'Click-through rate', 'percent', 'clicks', 'impressions', 100, 'Clicks per hundred impressions'),
  ratio('fill_rate', 'Fill rate', 'percent', 'impressions', 'requests', 100, 'Share of ad requests that ended in an impression'),
  ratio('win_rate', 'Win rate', 'percent', 'wins', 'bids', 100, 'Share of bids that won the auction'),
  sum('margin', 'Margin, USD', 'float', { access: 'shared', is_optional: 1, annotation: 'Custom column shared with every user of the project.' }),
  sum(
    'my_margin_estimate',
    'My margin estimate, USD',
    'float',
    { access: 'private', is_optional: 1, annotation: "Private custom column of user 'demo'." },
    DEMO_USER,
  ),
]

export function visibleDataFields(user: string): DataField[] {
  return DATA_FIELDS.filter((field) => field.owner === null || field.owner === user)
}

/** Finds a data field the user may see; private fields of other users are reported as unknown. */
export function findDataField(name: string, user: string): DataField | undefined {
  return visibleDataFields(user).find((field) => field.info.name === name)
}

/** Rounds to what the display type promises, keeping float noise out of responses and files. */
export function presentValue(field: DataField, value: number): number {
  if (field.info.display_type === 'int') return Math.round(value)
  return Math.round(value * 1e6) / 1e6
}

/** Adds `metric` of every listed record into `sums[group]`. */
export function accumulate(facts: FactTable, metric: BaseMetric, records: Int32Array, groupOf: Int32Array, sums: Float64Array): void {
  const count = records.length
  switch (metric) {
    case 'margin': {
      const revenue = facts.revenue
      const publisher = facts.publisher
      const rate = facts.marginRate
      for (let index = 0; index < count; index++) {
        const record = records[index] as number
        const group = groupOf[index] as number
        sums[group] = (sums[group] as number) + (revenue[record] as number) * (rate[publisher[record] as number] as number)
      }
      return
    }
    case 'my_margin_estimate': {
      const revenue = facts.revenue
      const bidder = facts.bidder
      const rate = facts.estimateRate
      for (let index = 0; index < count; index++) {
        const record = records[index] as number
        const group = groupOf[index] as number
        sums[group] = (sums[group] as number) + (revenue[record] as number) * (rate[bidder[record] as number] as number)
      }
      return
    }
    default: {
      const column: ArrayLike<number> = facts[metric]
      for (let index = 0; index < count; index++) {
        const group = groupOf[index] as number
        sums[group] = (sums[group] as number) + (column[records[index] as number] as number)
      }
    }
  }
}
