import { mix, mulberry32, weightedTable, zipfWeights } from '../prng'
import { countries, dealTypes, deviceTypes, sections, slugWords } from './names'
import type { Scale, SeededEntities } from './entities'
import { hourOfRecord } from './hours'
import { demoIncidents, type DemoIncidents } from './incidents'

/**
 * The fact table: one record per (hour, publisher, ad unit, brand, bidder, country, device, deal,
 * page, user) combination that saw traffic, stored column-wise in typed arrays so that a scan
 * over two million records costs tens of milliseconds and little memory.
 *
 * Key columns hold dictionary codes (index into the seeded entity arrays, the country list…).
 * Records are in hour order, so the hour is not stored per record: `hourStart` gives the first
 * record of each hour, a date range is a contiguous slice, and sorted record lists get their
 * hours by one forward walk (`hoursOf`).
 */
export interface FactTable {
  count: number
  /** Days since 1970-01-01 (UTC) of the first day with data, and how many days there are. */
  firstDay: number
  dayCount: number
  /** Hours since 1970-01-01T00:00Z of the first data hour. */
  firstHour: number
  /** Index of the first record of hour `firstHour + offset`; one extra entry holds `count`. */
  hourStart: Int32Array
  publisher: Uint16Array
  adUnit: Uint16Array
  brand: Uint16Array
  bidder: Uint8Array
  country: Uint8Array
  device: Uint8Array
  deal: Uint8Array
  page: Int32Array
  user: Uint16Array
  requests: Uint16Array
  bids: Uint16Array
  wins: Uint16Array
  impressions: Uint16Array
  clicks: Uint16Array
  revenue: Float32Array
  /** Per publisher code: the share of revenue kept (custom field `margin`). */
  marginRate: Float64Array
  /** Per bidder code: the demo user's own estimate of margin (private custom field). */
  estimateRate: Float64Array
  userPool: number
  pages: PageDictionary
  /** Which publishers and bidder the demo's incidents touch (incidents.ts). */
  incidents: Pick<DemoIncidents, 'droppedPublisher' | 'tinyPublisher' | 'spikingBidder'>
}

/** page_url values are computed from their id on demand: 1.7 million strings are never held at once. */
export interface PageDictionary {
  count: number
  text(pageId: number): string
  /** The id of a page_url text, or undefined; inverts `text` without a 1.7-million-entry map. */
  lookup(text: string): number | undefined
}

interface ScaleProfile {
  recordsPerDay: number
  popularShare: number
  popularPerPublisher: number
  userPool: number
}

const PROFILES: Record<Scale, ScaleProfile> = {
  // Small: most traffic on a few thousand popular pages, so page_url stays modest.
  small: { recordsPerDay: 600, popularShare: 0.93, popularPerPublisher: 50, userPool: 20_000 },
  // Large: 80% of records land on a page of their own, giving well over 1.5 million page_url values.
  large: { recordsPerDay: 5_000, popularShare: 0.2, popularPerPublisher: 200, userPool: 65_000 },
}

export const DATA_DAYS = 400

const DIURNAL = [0.35, 0.28, 0.22, 0.2, 0.22, 0.3, 0.5, 0.75, 0.95, 1.05, 1.1, 1.15, 1.2, 1.18, 1.15, 1.12, 1.1, 1.15, 1.25, 1.35, 1.4, 1.3, 0.95, 0.6]
const DIURNAL_MEAN = DIURNAL.reduce((sum, value) => sum + value, 0) / DIURNAL.length
/** Sunday first, like Date#getUTCDay: weekends are quiet, so an alert must compare a Saturday with Saturdays. */
const WEEKLY = [0.6, 1, 1.05, 1.05, 1.05, 1, 0.65]

/**
 * Builds the table for the 400 days before `todayDay` (exclusive). Each day draws from its own
 * PRNG seeded by (seed, day), so a given date holds the same data whichever day the sandbox starts.
 */
export function generateFacts(seed: number, scale: Scale, todayDay: number, entities: SeededEntities): FactTable {
  const profile = PROFILES[scale]
  const firstDay = todayDay - DATA_DAYS
  const setup = mulberry32(mix(seed, 0xfac7))

  const publisherCount = entities.publishers.length
  const publisherWeights = zipfWeights(publisherCount, 0.9, setup)
  const publisherTable = weightedTable(publisherWeights)
  const brandTable = weightedTable(zipfWeights(entities.brands.length, 1, setup))
  const bidderWeights = zipfWeights(entities.bidders.length, 0.8, setup)
  const bidderTable = weightedTable(bidderWeights)
  const incidents = demoIncidents(publisherWeights, bidderWeights)
  const countryTable = weightedTable(zipfWeights(countries.length, 1.1, setup))
  const deviceTable = weightedTable([0.12, 1, 1.6, 0.35])
  const dealTable = weightedTable([1, 0.2, 0.35, 0.08])
  const countryCpm = Float64Array.from(countries, (entry) => entry[2])
  const deviceCpm = Float64Array.from(deviceTypes, (entry) => entry[2])
  const dealCpm = Float64Array.from(dealTypes, (entry) => entry[2])
  const marginRate = Float64Array.from(entities.publishers, () => 0.1 + 0.2 * setup())
  const estimateRate = Float64Array.from(entities.bidders, () => 0.12 + 0.1 * setup())

  // Ad units of each publisher are contiguous in the seeded list (ids in publisher order).
  const unitStart = new Int32Array(publisherCount)
  const unitCount = new Int32Array(publisherCount)
  entities.adUnits.forEach((unit, index) => {
    const code = unit.publisher - 1
    if (unitCount[code] === 0) unitStart[code] = index
    unitCount[code] = (unitCount[code] ?? 0) + 1
  })

  // First pass: record counts per hour, so the columns are allocated once at their exact size.
  const perHourBase = profile.recordsPerDay / 24 / DIURNAL_MEAN
  const hourCounts = new Int32Array(DATA_DAYS * 24)
  let total = 0
  for (let dayOffset = 0; dayOffset < DATA_DAYS; dayOffset++) {
    const day = firstDay + dayOffset
    const random = mulberry32(mix(seed, day, 1))
    const weekday = (((day + 4) % 7) + 7) % 7
    const season = 1 + 0.12 * Math.sin((2 * Math.PI * day) / 365.25)
    for (let hourOfDay = 0; hourOfDay < 24; hourOfDay++) {
      const count = Math.round(perHourBase * (DIURNAL[hourOfDay] ?? 1) * (WEEKLY[weekday] ?? 1) * season * (0.85 + 0.3 * random()))
      hourCounts[dayOffset * 24 + hourOfDay] = count
      total += count
    }
  }

  const hourStart = new Int32Array(DATA_DAYS * 24 + 1)
  const table = {
    publisher: new Uint16Array(total),
    adUnit: new Uint16Array(total),
    brand: new Uint16Array(total),
    bidder: new Uint8Array(total),
    country: new Uint8Array(total),
    device: new Uint8Array(total),
    deal: new Uint8Array(total),
    page: new Int32Array(total),
    user: new Uint16Array(total),
    requests: new Uint16Array(total),
    bids: new Uint16Array(total),
    wins: new Uint16Array(total),
    impressions: new Uint16Array(total),
    clicks: new Uint16Array(total),
    revenue: new Float32Array(total),
  }
  const popularCount = publisherCount * profile.popularPerPublisher
  // Room for the expected share of fresh pages plus slack; grown if a seed draws more.
  let pageOrigin = new Int32Array(Math.ceil(total * (1 - profile.popularShare) * 1.05) + 1024)
  const dayFirstRecord = new Int32Array(DATA_DAYS)
  let freshPages = 0
  let index = 0

  for (let dayOffset = 0; dayOffset < DATA_DAYS; dayOffset++) {
    const day = firstDay + dayOffset
    const random = mulberry32(mix(seed, day, 2))
    const incident = incidents.factorsOf(day - todayDay)
    dayFirstRecord[dayOffset] = index
    for (let hourOfDay = 0; hourOfDay < 24; hourOfDay++) {
      const count = hourCounts[dayOffset * 24 + hourOfDay] ?? 0
      hourStart[dayOffset * 24 + hourOfDay] = index
      for (let record = 0; record < count; record++, index++) {
        const publisher = publisherTable[(random() * 4096) | 0] ?? 0
        const country = countryTable[(random() * 4096) | 0] ?? 0
        const device = deviceTable[(random() * 4096) | 0] ?? 0
        const deal = dealTable[(random() * 4096) | 0] ?? 0
        const bidder = bidderTable[(random() * 4096) | 0] ?? 0
        table.publisher[index] = publisher
        table.adUnit[index] = (unitStart[publisher] ?? 0) + Math.floor(random() * (unitCount[publisher] ?? 1))
        table.brand[index] = brandTable[(random() * 4096) | 0] ?? 0
        table.bidder[index] = bidder
        table.country[index] = country
        table.device[index] = device
        table.deal[index] = deal
        if (random() < profile.popularShare) {
          table.page[index] = publisher * profile.popularPerPublisher + Math.floor(random() * profile.popularPerPublisher)
        } else {
          table.page[index] = popularCount + freshPages
          if (freshPages === pageOrigin.length) {
            const grown = new Int32Array(pageOrigin.length * 2)
            grown.set(pageOrigin)
            pageOrigin = grown
          }
          pageOrigin[freshPages++] = index
        }
        const draw = random()
        table.user[index] = Math.floor(profile.userPool * draw * draw)
        const requests = 200 + Math.floor(random() * 3800)
        const bids = Math.floor(requests * (0.35 + 0.5 * random()))
        const wins = Math.floor(bids * (0.12 + 0.35 * random()))
        const impressions = Math.floor(wins * (0.85 + 0.15 * random()))
        const clickRate = 0.002 + 0.02 * random() * random()
        table.requests[index] = requests
        table.bids[index] = bids
        table.wins[index] = wins
        table.impressions[index] = impressions
        table.clicks[index] = Math.floor(impressions * clickRate + random())
        const cpm = 1.2 * (countryCpm[country] ?? 1) * (deviceCpm[device] ?? 1) * (dealCpm[deal] ?? 1) * (0.6 + 0.8 * random())
        table.revenue[index] = (impressions * cpm) / 1000
        if (incident !== null) scaleRecord(table, index, (incident.publisher[publisher] ?? 1) * (incident.bidder[bidder] ?? 1))
      }
    }
  }

  hourStart[DATA_DAYS * 24] = total
  const firstHour = firstDay * 24
  const origins = pageOrigin.subarray(0, freshPages)
  const publishers = table.publisher
  const seededPublishers = entities.publishers
  const pageText = (pageId: number): string => {
    if (pageId < popularCount) {
      const publisher = Math.floor(pageId / profile.popularPerPublisher)
      const slot = pageId % profile.popularPerPublisher
      const words = mulberry32(mix(seed, 0x9a9e, publisher, slot))
      return `${seededPublishers[publisher]?.url ?? 'https://unknown.example'}/${pickWord(sections, words)}/${pickWord(slugWords, words)}-${pickWord(slugWords, words)}-${slot}`
    }
    const origin = origins[pageId - popularCount] ?? 0
    const day = Math.floor(hourOfRecord(hourStart, firstHour, origin) / 24)
    const ordinal = origin - (dayFirstRecord[day - firstDay] ?? 0)
    const words = mulberry32(mix(seed, 0xf7e5, day, ordinal))
    const host = seededPublishers[publishers[origin] ?? 0]?.url ?? 'https://unknown.example'
    return `${host}/${pickWord(sections, words)}/${pickWord(slugWords, words)}-${pickWord(slugWords, words)}-${day.toString(36)}-${ordinal.toString(36)}`
  }

  const lookupPage = (text: string): number | undefined => {
    const fresh = /-([0-9a-z]+)-([0-9a-z]+)$/.exec(text)
    if (fresh) {
      const day = parseInt(fresh[1] ?? '', 36)
      const first = dayFirstRecord[day - firstDay]
      const origin = first === undefined ? -1 : first + parseInt(fresh[2] ?? '', 36)
      const pageId = origin >= 0 && origin < total ? table.page[origin] : undefined
      if (pageId !== undefined && pageId >= popularCount && pageText(pageId) === text) return pageId
    }
    const popular = /-(\d+)$/.exec(text)
    const slot = Number(popular?.[1] ?? -1)
    if (slot >= 0 && slot < profile.popularPerPublisher) {
      for (let publisher = 0; publisher < publisherCount; publisher++) {
        const pageId = publisher * profile.popularPerPublisher + slot
        if (pageText(pageId) === text) return pageId
      }
    }
    return undefined
  }

  return {
    count: total,
    firstDay,
    firstHour,
    hourStart,
    dayCount: DATA_DAYS,
    ...table,
    marginRate,
    estimateRate,
    userPool: profile.userPool,
    pages: { count: popularCount + freshPages, text: pageText, lookup: lookupPage },
    incidents: { droppedPublisher: incidents.droppedPublisher, tinyPublisher: incidents.tinyPublisher, spikingBidder: incidents.spikingBidder },
  }
}

function pickWord(words: readonly string[], random: () => number): string {
  return words[Math.floor(random() * words.length)] ?? ''
}

type MetricColumns = Record<'requests' | 'bids' | 'wins' | 'impressions' | 'clicks' | 'revenue', { [index: number]: number }>

/** An incident's effect on one record: every volume metric scaled alike, so rates (win rate, CTR) stay plausible. */
function scaleRecord(columns: MetricColumns, index: number, factor: number): void {
  if (factor === 1) return
  for (const name of ['requests', 'bids', 'wins', 'impressions', 'clicks', 'revenue'] as const) {
    const column = columns[name]
    column[index] = name === 'revenue' ? (column[index] ?? 0) * factor : Math.round((column[index] ?? 0) * factor)
  }
}
