import { hoursOf } from '../data/hours'
import type { FactTable } from '../data/facts'
import type { SeededEntities } from '../data/entities'
import { countries, dealTypes, deviceTypes } from '../data/names'
import { bucketMapping, bucketOfLocalHour, formatBucket, TIME_GRANULARITIES } from './dates'
import type { Granularity } from './dates'

export interface ServedKeyField {
  name: string
  description: string
  type: 'int' | 'text'
  mapping: string | null
  is_segmented: 0 | 1
  link?: string
  annotation: string
}

/** The hours a request covers, in UTC hours since 1970 (end exclusive), and its time zone. */
export interface HourRange {
  startHour: number
  endHour: number
  timezone: number
}

/**
 * One key field as a query sees it: values are dictionary codes 0..cardinality-1; text and
 * mapping turn a code into what the API shows.
 */
export interface KeyAccessor {
  name: string
  cardinality: number
  hasMapping: boolean
  /** The granularity when this is a time field. */
  time: Granularity | null
  /** The code of each listed record. */
  codes(records: Int32Array): Int32Array
  /** The fact column holding the codes, when the field is stored (lets hot loops skip a copy). */
  column: ArrayLike<number> | null
  text(code: number): string
  /** The code of a value's text, or undefined when no such value exists. */
  lookup(text: string): number | undefined
  mapping(code: number): string | null
  /** Natural order of values (ids numerically, text by code point, time chronologically). */
  compare(left: number, right: number): number
}

export type EntityKind = 'publishers' | 'ad_units' | 'brands' | 'bidders'

/** Current name of a Workflow entity, so renaming it there shows in reports too. */
export type NameLookup = (kind: EntityKind, id: number) => string | undefined

export const TIME_FIELD_NAMES: readonly string[] = TIME_GRANULARITIES.map((granularity) => `granularity_${granularity}`)

export const KEY_FIELDS: readonly ServedKeyField[] = [
  ...TIME_GRANULARITIES.map((granularity): ServedKeyField => ({
    name: `granularity_${granularity}`,
    description: granularity.charAt(0).toUpperCase() + granularity.slice(1),
    type: 'text',
    mapping: null,
    is_segmented: 0,
    annotation: 'Time in the requested time zone.',
  })),
  {
    name: 'publisher',
    description: 'Publisher',
    type: 'int',
    mapping: 'publisher_name',
    is_segmented: 0,
    link: 'supply',
    annotation: 'Workflow publisher id.',
  },
  { name: 'ad_unit', description: 'Ad unit', type: 'int', mapping: 'ad_unit_name', is_segmented: 0, link: 'supply', annotation: 'Workflow ad unit id.' },
  { name: 'brand', description: 'Brand', type: 'int', mapping: 'brand_name', is_segmented: 0, link: 'demand', annotation: 'Workflow brand id.' },
  { name: 'bidder', description: 'Bidder', type: 'int', mapping: 'bidder_name', is_segmented: 0, link: 'demand', annotation: 'Workflow bidder id.' },
  { name: 'country', description: 'Country', type: 'text', mapping: 'country_name', is_segmented: 0, annotation: 'ISO 3166-1 alpha-2 code.' },
  { name: 'device_type', description: 'Device type', type: 'text', mapping: 'device_type_name', is_segmented: 0, annotation: '' },
  { name: 'deal_type', description: 'Deal type', type: 'text', mapping: 'deal_type_name', is_segmented: 0, annotation: '' },
  { name: 'page_url', description: 'Page URL', type: 'text', mapping: null, is_segmented: 1, annotation: 'Address of the page the ad was shown on.' },
]

export function timeGranularityOf(name: string): Granularity | null {
  const match = /^granularity_(\w+)$/.exec(name)
  const granularity = match?.[1]
  return TIME_GRANULARITIES.find((candidate) => candidate === granularity) ?? null
}

export function isKeyField(name: string): boolean {
  return KEY_FIELDS.some((field) => field.name === name)
}

function gather(column: ArrayLike<number>, records: Int32Array): Int32Array {
  const codes = new Int32Array(records.length)
  for (let index = 0; index < records.length; index++) codes[index] = column[records[index] as number] as number
  return codes
}

const byCode = (left: number, right: number): number => left - right

/** Builds accessors for one request's hour range. */
export class KeyModel {
  constructor(
    private readonly facts: FactTable,
    private readonly entities: SeededEntities,
    private readonly liveName: NameLookup,
  ) {}

  accessor(name: string, range: HourRange): KeyAccessor | undefined {
    const time = timeGranularityOf(name)
    if (time) return this.timeAccessor(name, time, range)
    const facts = this.facts
    const entities = this.entities
    switch (name) {
      case 'publisher':
        return this.entityAccessor(name, 'publishers', facts.publisher, entities.publishers)
      case 'ad_unit':
        return this.entityAccessor(name, 'ad_units', facts.adUnit, entities.adUnits)
      case 'brand':
        return this.entityAccessor(name, 'brands', facts.brand, entities.brands)
      case 'bidder':
        return this.entityAccessor(name, 'bidders', facts.bidder, entities.bidders)
      case 'country':
        return this.listAccessor(name, facts.country, countries)
      case 'device_type':
        return this.listAccessor(name, facts.device, deviceTypes)
      case 'deal_type':
        return this.listAccessor(name, facts.deal, dealTypes)
      case 'page_url': {
        const pages = facts.pages
        return {
          name,
          cardinality: pages.count,
          hasMapping: false,
          time: null,
          codes: (records) => gather(facts.page, records),
          column: facts.page,
          text: (code) => pages.text(code),
          lookup: (text) => pages.lookup(text),
          mapping: () => null,
          compare: (left, right) => {
            const a = pages.text(left)
            const b = pages.text(right)
            return a < b ? -1 : a > b ? 1 : 0
          },
        }
      }
      default:
        return undefined
    }
  }

  private entityAccessor(name: string, kind: EntityKind, column: ArrayLike<number>, seeded: ReadonlyArray<{ id: number; name: string }>): KeyAccessor {
    // Codes follow the seeded order, which is id order, so comparing codes compares ids.
    return {
      name,
      cardinality: seeded.length,
      hasMapping: true,
      time: null,
      codes: (records) => gather(column, records),
      column,
      text: (code) => String(seeded[code]?.id ?? ''),
      lookup: (text) => {
        const code = /^[1-9]\d*$/.test(text) ? Number(text) - 1 : -1
        return seeded[code]?.id === code + 1 ? code : undefined
      },
      mapping: (code) => {
        const entity = seeded[code]
        if (!entity) return null
        return this.liveName(kind, entity.id) ?? entity.name
      },
      compare: byCode,
    }
  }

  private listAccessor(name: string, column: ArrayLike<number>, list: ReadonlyArray<readonly [string, string, number]>): KeyAccessor {
    // The lists are sorted by value, so comparing codes compares values.
    return {
      name,
      cardinality: list.length,
      hasMapping: true,
      time: null,
      codes: (records) => gather(column, records),
      column,
      text: (code) => list[code]?.[0] ?? '',
      lookup: (text) => {
        const code = list.findIndex((entry) => entry[0] === text)
        return code < 0 ? undefined : code
      },
      mapping: (code) => list[code]?.[1] ?? null,
      compare: byCode,
    }
  }

  private timeAccessor(name: string, granularity: Granularity, range: HourRange): KeyAccessor {
    // Codes are bucket ordinals from the first bucket the range touches; a per-hour table maps
    // each record's hour to its code in one read.
    const localStart = range.startHour + range.timezone
    const hours = Math.max(0, range.endHour - range.startHour)
    const firstBucket = bucketOfLocalHour(granularity, localStart)
    const codeOfOffset = new Int32Array(hours)
    let lastCode = -1
    for (let offset = 0; offset < hours; offset++) {
      const code = bucketOfLocalHour(granularity, localStart + offset) - firstBucket
      codeOfOffset[offset] = code
      lastCode = code
    }
    const facts = this.facts
    return {
      name,
      cardinality: lastCode + 1,
      hasMapping: false,
      time: granularity,
      codes: (records) => {
        const codes = hoursOf(facts, records)
        for (let index = 0; index < codes.length; index++) codes[index] = codeOfOffset[(codes[index] as number) - range.startHour] as number
        return codes
      },
      column: null,
      text: (code) => formatBucket(granularity, firstBucket + code),
      lookup: (text) => {
        for (let code = 0; code <= lastCode; code++) if (formatBucket(granularity, firstBucket + code) === text) return code
        return undefined
      },
      mapping: () => null,
      compare: byCode,
    }
  }

  /** `__mapping__` of a time bucket code, used by time_series rows. */
  static timeMapping(granularity: Granularity, range: HourRange, code: number): string {
    return bucketMapping(granularity, bucketOfLocalHour(granularity, range.startHour + range.timezone) + code)
  }

  /** Bucket id (see dates.ts) of a code, for placing markers. */
  static bucketOfCode(granularity: Granularity, range: HourRange, code: number): number {
    return bucketOfLocalHour(granularity, range.startHour + range.timezone) + code
  }
}
