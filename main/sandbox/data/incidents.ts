/**
 * The demo's deterministic incidents, placed relative to its "today" so that every launch has
 * something for a seasonal alert rule to find, and something it must not find:
 * - the biggest publisher delivered 60% less yesterday (an outage);
 * - the biggest bidder tripled its volume the day before yesterday (a spike);
 * - the smallest publisher dipped 85% yesterday: real, but too small to matter (a rule's floor
 *   keeps it quiet).
 * An incident scales the metrics of the records it touches and draws nothing from the day's
 * random sequence, so every other record (and every other day) holds exactly what it held before.
 */
export interface DemoIncidents {
  /** Publisher and bidder codes (indexes into the seeded lists). */
  droppedPublisher: number
  tinyPublisher: number
  spikingBidder: number
  /** Per day offset from today (−1 is yesterday): factor per publisher code and per bidder code, or null on a normal day. */
  factorsOf(daysBeforeToday: number): { publisher: Float64Array; bidder: Float64Array } | null
}

function largest(weights: readonly number[], pickSmallest = false): number {
  let best = 0
  weights.forEach((weight, index) => {
    if (pickSmallest ? weight < (weights[best] as number) : weight > (weights[best] as number)) best = index
  })
  return best
}

export const INCIDENT_FACTORS = { publisherDrop: 0.4, tinyDip: 0.15, bidderSpike: 2.5 } as const

export function demoIncidents(publisherWeights: readonly number[], bidderWeights: readonly number[]): DemoIncidents {
  const droppedPublisher = largest(publisherWeights)
  const tinyPublisher = largest(publisherWeights, true)
  const spikingBidder = largest(bidderWeights)
  const ones = (length: number) => new Float64Array(length).fill(1)
  const yesterday = { publisher: ones(publisherWeights.length), bidder: ones(bidderWeights.length) }
  yesterday.publisher[droppedPublisher] = INCIDENT_FACTORS.publisherDrop
  yesterday.publisher[tinyPublisher] = INCIDENT_FACTORS.tinyDip
  const dayBefore = { publisher: ones(publisherWeights.length), bidder: ones(bidderWeights.length) }
  dayBefore.bidder[spikingBidder] = INCIDENT_FACTORS.bidderSpike
  return {
    droppedPublisher,
    tinyPublisher,
    spikingBidder,
    factorsOf: (days) => (days === -1 ? yesterday : days === -2 ? dayBefore : null),
  }
}
