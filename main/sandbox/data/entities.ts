import { mix, mulberry32, pick, shuffled } from '../prng'
import {
  agencyFirst,
  agencySecond,
  bidderNames,
  brandPrefixes,
  brandProducts,
  bulkAdjectives,
  bulkNouns,
  placements,
  publisherNames,
  sizes,
  slugify,
} from './names'

export interface Publisher {
  id: number
  name: string
  external_id: string
  url: string
}
export interface Brand {
  id: number
  name: string
  is_open_auction_allowed: boolean
  is_pmp_allowed: boolean
  external_id: string
  advertiser_domains: string[]
}
export interface AdUnit {
  id: number
  name: string
  external_id: string
  publisher: number
  size: string
}
export interface Agency {
  id: number
  name: string
  external_id: string
  brands: number[]
}
export interface Bidder {
  id: number
  name: string
  external_id: string
  endpoint_url: string
  is_active: boolean
}

export type Scale = 'small' | 'large'

export interface SeededEntities {
  publishers: Publisher[]
  brands: Brand[]
  adUnits: AdUnit[]
  agencies: Agency[]
  bidders: Bidder[]
  /** Publishers with ids after the seeded ones, made on demand (large scale only). */
  bulkPublisherCount: number
  bulkPublisher(id: number): Publisher
}

export const COUNTS = { publishers: 40, adUnits: 400, brands: 150, agencies: 30, bidders: 25, bulkPublishers: 100_000 }

export function externalId(prefix: string, id: number): string {
  return `${prefix}-${String(id).padStart(6, '0')}`
}

export function generateEntities(seed: number, scale: Scale): SeededEntities {
  const random = mulberry32(mix(seed, 0x5eed))

  const publishers: Publisher[] = shuffled(publisherNames, random)
    .slice(0, COUNTS.publishers)
    .map((name, index) => ({
      id: index + 1,
      name,
      external_id: externalId('PUB', index + 1),
      url: `https://${slugify(name)}.example`,
    }))

  const brandCombos = shuffled(
    brandPrefixes.flatMap((prefix) => brandProducts.map((product) => `${prefix} ${product}`)),
    random,
  )
  const brands: Brand[] = brandCombos.slice(0, COUNTS.brands).map((name, index) => {
    // One brand carries a comma and quotes on every seed: real names do, and csv quoting must cope.
    const finalName = index === 4 ? 'Hart, Lowe & "Sons" Outfitters' : name
    const domain = `${slugify(finalName)}.example`
    return {
      id: index + 1,
      name: finalName,
      is_open_auction_allowed: random() < 0.8,
      is_pmp_allowed: random() < 0.6,
      external_id: externalId('BRD', index + 1),
      advertiser_domains: random() < 0.3 ? [domain, `shop.${domain}`] : [domain],
    }
  })

  // Ad units: 4..16 per publisher, scaled so the total is exactly COUNTS.adUnits.
  const shares = publishers.map(() => 4 + random() * 12)
  const shareTotal = shares.reduce((sum, share) => sum + share, 0)
  const perPublisher = shares.map((share) => Math.max(1, Math.floor((share / shareTotal) * COUNTS.adUnits)))
  let assigned = perPublisher.reduce((sum, count) => sum + count, 0)
  for (let index = 0; assigned < COUNTS.adUnits; index = (index + 1) % perPublisher.length, assigned++) {
    perPublisher[index] = (perPublisher[index] ?? 0) + 1
  }
  const adUnits: AdUnit[] = []
  publishers.forEach((publisher, publisherIndex) => {
    const used = new Set<string>()
    for (let count = 0; count < (perPublisher[publisherIndex] ?? 0); count++) {
      const size = pick(sizes, random)
      let name = `${slugify(publisher.name)}_${pick(placements, random)}_${size}`
      for (let suffix = 2; used.has(name); suffix++) name = `${name.replace(/_\d+$/, '')}_${suffix}`
      used.add(name)
      const id = adUnits.length + 1
      adUnits.push({ id, name, external_id: externalId('ADU', id), publisher: publisher.id, size })
    }
  })

  // Agencies use only the first 80% of brands, so some brands can be deleted (no 406).
  const agencyCombos = shuffled(
    agencyFirst.flatMap((first) => agencySecond.map((second) => `${first} ${second}`)),
    random,
  )
  const usableBrands = Math.floor(COUNTS.brands * 0.8)
  const agencies: Agency[] = agencyCombos.slice(0, COUNTS.agencies).map((name, index) => {
    const count = 2 + Math.floor(random() * 7)
    const chosen = new Set<number>()
    while (chosen.size < count) chosen.add(1 + Math.floor(random() * usableBrands))
    return { id: index + 1, name, external_id: externalId('AGY', index + 1), brands: [...chosen].sort((a, b) => a - b) }
  })

  const bidders: Bidder[] = shuffled(bidderNames, random)
    .slice(0, COUNTS.bidders)
    .map((name, index) => ({
      id: index + 1,
      name,
      external_id: externalId('BID', index + 1),
      endpoint_url: `https://rtb.${slugify(name)}.example/openrtb2/auction`,
      is_active: random() < 0.9,
    }))

  const bulkPublisherCount = scale === 'large' ? COUNTS.bulkPublishers : 0
  // Bulk publishers are computed from (seed, id) alone: 100,000 objects are never held at once.
  const bulkPublisher = (id: number): Publisher => {
    const bulkRandom = mulberry32(mix(seed, 0xb01c, id))
    const stem = `${pick(bulkAdjectives, bulkRandom)} ${pick(bulkNouns, bulkRandom)}`
    return { id, name: `${stem} ${id}`, external_id: externalId('PUB', id), url: `https://${slugify(stem)}-${id}.example` }
  }

  return { publishers, brands, adUnits, agencies, bidders, bulkPublisherCount, bulkPublisher }
}
