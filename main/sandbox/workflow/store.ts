import type { AdUnit, Agency, Bidder, Brand, Publisher, SeededEntities } from '../data/entities'
import { externalId } from '../data/entities'

export const KINDS = ['publishers', 'brands', 'ad_units', 'agencies', 'bidders'] as const
export type Kind = (typeof KINDS)[number]

export interface EntityOf {
  publishers: Publisher
  brands: Brand
  ad_units: AdUnit
  agencies: Agency
  bidders: Bidder
}
export type AnyEntity = EntityOf[Kind]

export function isKind(name: string): name is Kind {
  return KINDS.some((kind) => kind === name)
}

/** Seeded entities of a kind: a dense id range 1..count, read without copying. */
interface BaseSource<E> {
  count: number
  get(id: number): E | undefined
  externalIdPrefix: string
}

/**
 * One kind's entities: the seeded ones (possibly 100,000 computed on demand) plus what the
 * client created or replaced. Live ids are kept sorted so pages are slices.
 */
export class EntityStore<E extends AnyEntity> {
  private readonly ids: number[]
  private readonly changed = new Map<number, E>()
  /** external_id → id for every entity that is not an untouched seeded one. */
  private readonly externalIndex = new Map<string, number>()
  private nextId: number

  constructor(private readonly base: BaseSource<E>) {
    this.ids = Array.from({ length: base.count }, (_, index) => index + 1)
    this.nextId = base.count + 1
  }

  get count(): number {
    return this.ids.length
  }

  page(offset: number, limit: number): E[] {
    return this.ids.slice(offset, offset + limit).map((id) => this.get(id) as E)
  }

  all(): E[] {
    return this.page(0, this.ids.length)
  }

  private position(id: number): number {
    let low = 0
    let high = this.ids.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if ((this.ids[middle] as number) < id) low = middle + 1
      else high = middle
    }
    return this.ids[low] === id ? low : -1
  }

  get(id: number): E | undefined {
    if (this.position(id) < 0) return undefined
    return this.changed.get(id) ?? this.base.get(id)
  }

  /** Id of the live entity holding this external_id, if any. */
  findByExternalId(value: string): number | undefined {
    const indexed = this.externalIndex.get(value)
    if (indexed !== undefined) return indexed
    // Untouched seeded entities carry `PREFIX-000123`: parse instead of indexing 100,000 of them.
    const match = /^([A-Z]+)-(\d{6})$/.exec(value)
    if (!match || match[1] !== this.base.externalIdPrefix) return undefined
    const id = Number(match[2])
    if (id < 1 || id > this.base.count || this.changed.has(id) || this.position(id) < 0) return undefined
    return externalId(this.base.externalIdPrefix, id) === value ? id : undefined
  }

  /** `fields` must have passed the kind's validation (workflow/validate.ts); the store adds the id. */
  create(fields: Record<string, unknown>): E {
    const created = { ...fields, id: this.nextId++ } as unknown as E
    this.ids.push(created.id)
    this.changed.set(created.id, created)
    this.index(created)
    return created
  }

  /** `fields` must have passed the kind's validation; the id is kept. */
  replace(id: number, fields: Record<string, unknown>): E {
    const entity = { ...fields, id } as unknown as E
    const previous = this.get(id)
    if (previous) this.unindex(previous)
    this.changed.set(id, entity)
    this.index(entity)
    return entity
  }

  remove(id: number): void {
    const position = this.position(id)
    if (position < 0) return
    const previous = this.get(id)
    if (previous) this.unindex(previous)
    this.ids.splice(position, 1)
    this.changed.delete(id)
  }

  private index(entity: E): void {
    if (entity.external_id) this.externalIndex.set(entity.external_id, entity.id)
  }

  private unindex(entity: E): void {
    if (entity.external_id && this.externalIndex.get(entity.external_id) === entity.id) this.externalIndex.delete(entity.external_id)
  }
}

function arraySource<E extends AnyEntity>(items: readonly E[], prefix: string): BaseSource<E> {
  return { count: items.length, get: (id) => items[id - 1], externalIdPrefix: prefix }
}

/** All five kinds plus the dependency counts that decide 406 on delete. */
export class WorkflowStore {
  readonly publishers: EntityStore<Publisher>
  readonly brands: EntityStore<Brand>
  readonly ad_units: EntityStore<AdUnit>
  readonly agencies: EntityStore<Agency>
  readonly bidders: EntityStore<Bidder>
  private readonly adUnitsOfPublisher = new Map<number, number>()
  private readonly agenciesOfBrand = new Map<number, number>()

  constructor(seeded: SeededEntities) {
    const seededPublishers = seeded.publishers
    this.publishers = new EntityStore<Publisher>({
      count: seededPublishers.length + seeded.bulkPublisherCount,
      get: (id) => (id <= seededPublishers.length ? seededPublishers[id - 1] : seeded.bulkPublisher(id)),
      externalIdPrefix: 'PUB',
    })
    this.brands = new EntityStore(arraySource(seeded.brands, 'BRD'))
    this.ad_units = new EntityStore(arraySource(seeded.adUnits, 'ADU'))
    this.agencies = new EntityStore(arraySource(seeded.agencies, 'AGY'))
    this.bidders = new EntityStore(arraySource(seeded.bidders, 'BID'))
    for (const unit of seeded.adUnits) this.countAdUnit(unit, 1)
    for (const agency of seeded.agencies) this.countAgency(agency, 1)
  }

  store<K extends Kind>(kind: K): EntityStore<EntityOf[K]> {
    // Each property is typed by its kind; the lookup table keeps that link for the caller.
    const stores: { [Key in Kind]: EntityStore<EntityOf[Key]> } = {
      publishers: this.publishers,
      brands: this.brands,
      ad_units: this.ad_units,
      agencies: this.agencies,
      bidders: this.bidders,
    }
    return stores[kind]
  }

  create(kind: Kind, fields: Record<string, unknown>): AnyEntity {
    const created = this.store(kind).create(fields)
    this.count(kind, created.id, 1)
    return created
  }

  replace(kind: Kind, id: number, fields: Record<string, unknown>): void {
    this.count(kind, id, -1)
    this.store(kind).replace(id, fields)
    this.count(kind, id, 1)
  }

  remove(kind: Kind, id: number): void {
    this.count(kind, id, -1)
    this.store(kind).remove(id)
  }

  /** Keeps the dependency counts in step with ad units and agencies as they change. */
  private count(kind: Kind, id: number, delta: number): void {
    if (kind === 'ad_units') {
      const unit = this.ad_units.get(id)
      if (unit) this.countAdUnit(unit, delta)
    } else if (kind === 'agencies') {
      const agency = this.agencies.get(id)
      if (agency) this.countAgency(agency, delta)
    }
  }

  private countAdUnit(unit: AdUnit, delta: number): void {
    this.adUnitsOfPublisher.set(unit.publisher, (this.adUnitsOfPublisher.get(unit.publisher) ?? 0) + delta)
  }

  private countAgency(agency: Agency, delta: number): void {
    for (const brand of agency.brands) this.agenciesOfBrand.set(brand, (this.agenciesOfBrand.get(brand) ?? 0) + delta)
  }

  adUnitCount(publisher: number): number {
    return this.adUnitsOfPublisher.get(publisher) ?? 0
  }

  agencyCount(brand: number): number {
    return this.agenciesOfBrand.get(brand) ?? 0
  }
}
