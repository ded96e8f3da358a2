/**
 * Seeded randomness. Everything the sandbox invents comes from these two functions so that
 * one seed always tells the same story, on every machine and in every run.
 */

/** A 32-bit hash of several integers (murmur3 finaliser per step); used to derive sub-seeds. */
export function mix(...values: number[]): number {
  let hash = 0x9e3779b9
  for (const value of values) {
    hash = Math.imul(hash ^ (value | 0), 0x85ebca6b)
    hash ^= hash >>> 13
    hash = Math.imul(hash, 0xc2b2ae35)
    hash ^= hash >>> 16
    // Mix the high part of values beyond 32 bits too (day numbers and ids stay small, but be safe).
    hash = Math.imul(hash ^ Math.floor(value / 0x100000000), 0x27d4eb2f)
    hash ^= hash >>> 15
  }
  return hash >>> 0
}

/** mulberry32: tiny, fast and good enough for synthetic data. Returns floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A deterministic Fisher-Yates shuffle (returns a new array). */
export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const copy = items.slice()
  for (let index = copy.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1))
    const held = copy[index] as T
    copy[index] = copy[other] as T
    copy[other] = held
  }
  return copy
}

/** Picks one element; the list must not be empty. */
export function pick<T>(items: readonly T[], random: () => number): T {
  const item = items[Math.floor(random() * items.length)]
  if (item === undefined) throw new Error('pick from an empty list')
  return item
}

/**
 * A 4096-slot lookup table turning a uniform draw into a weighted index, so the hot
 * generation loop does one array read instead of a search.
 */
export function weightedTable(weights: readonly number[]): Uint16Array {
  const total = weights.reduce((sum, weight) => sum + weight, 0)
  const table = new Uint16Array(4096)
  let index = 0
  let cumulative = weights[0] ?? 0
  for (let slot = 0; slot < table.length; slot++) {
    const point = ((slot + 0.5) / table.length) * total
    while (point > cumulative && index < weights.length - 1) {
      index++
      cumulative += weights[index] ?? 0
    }
    table[slot] = index
  }
  return table
}

/** Zipf-like weights: a few big items and a long tail, the usual shape of ad traffic. */
export function zipfWeights(count: number, exponent: number, random: () => number): number[] {
  const weights: number[] = []
  for (let rank = 1; rank <= count; rank++) weights.push((0.8 + 0.4 * random()) / Math.pow(rank, exponent))
  return shuffled(weights, random)
}
