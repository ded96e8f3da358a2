import os from 'node:os'

/**
 * The file a kept result lives in: its description as one line of JSON (readable with `head`),
 * then the chart's values as raw 64-bit floats. A kept chart can hold 50 lines × 10,000 points;
 * as JSON those 500,000 numbers took half of main's time to open a preset (parsing them ~16 ms,
 * checking them ~4 ms), where here they are one read and one pass.
 *
 *   line 1   `AdOps Desk kept result`
 *   line 2   the header: JSON, with `valueCounts` (how many values each series has)
 *   spaces   up to the next multiple of 8 bytes, so the values can be read in place
 *   values   every series' values in order, little-endian float64, NaN for a gap
 */

const MAGIC = 'AdOps Desk kept result\n'
const VALUE_BYTES = 8
const littleEndian = os.endianness() === 'LE'

export type KeptFileRead = { header: unknown; values: Float64Array } | { problem: string }

const alignedEnd = (offset: number): number => Math.ceil(offset / VALUE_BYTES) * VALUE_BYTES

/** The file for `header` and the values of each series (null is a gap). The header must not contain `valueCounts`: it is added here. */
export function encodeKeptFile(header: Record<string, unknown>, series: ReadonlyArray<ReadonlyArray<number | null>>): Buffer {
  const headerText = JSON.stringify({ ...header, valueCounts: series.map((values) => values.length) })
  const start = alignedEnd(Buffer.byteLength(MAGIC) + Buffer.byteLength(headerText) + 1)
  const count = series.reduce((sum, values) => sum + values.length, 0)
  const bytes = Buffer.alloc(start + count * VALUE_BYTES)
  const written = bytes.write(MAGIC + headerText + '\n')
  bytes.fill(' ', written, start)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length)
  let offset = start
  for (const values of series) {
    for (const value of values) {
      view.setFloat64(offset, value === null ? Number.NaN : value, true)
      offset += VALUE_BYTES
    }
  }
  return bytes
}

/** The header as parsed JSON and the values in one array (checked against `valueCounts` by the caller), or what is wrong with the file. */
export function decodeKeptFile(bytes: Buffer): KeptFileRead {
  if (bytes.toString('latin1', 0, MAGIC.length) !== MAGIC) return { problem: 'it is not a kept result file' }
  const headerEnd = bytes.indexOf(10, MAGIC.length)
  if (headerEnd < 0) return { problem: 'it is cut short' }
  let header: unknown
  try {
    header = JSON.parse(bytes.toString('utf8', MAGIC.length, headerEnd))
  } catch (error) {
    return { problem: `its header is not valid JSON (${(error as Error).message})` }
  }
  const start = alignedEnd(headerEnd + 1)
  if (start > bytes.length || (bytes.length - start) % VALUE_BYTES !== 0) return { problem: 'its values are cut short' }
  const count = (bytes.length - start) / VALUE_BYTES
  const offset = bytes.byteOffset + start
  // In place when the bytes allow it (a file read whole is its own aligned buffer); otherwise copied, byte order fixed.
  if (littleEndian && offset % VALUE_BYTES === 0) return { header, values: new Float64Array(bytes.buffer, offset, count) }
  const values = new Float64Array(count)
  const view = new DataView(bytes.buffer, offset, count * VALUE_BYTES)
  for (let index = 0; index < count; index++) values[index] = view.getFloat64(index * VALUE_BYTES, true)
  return { header, values }
}

/**
 * The values of each series as the rest of the app holds them (null for a gap), or what is
 * wrong: counts that do not add up to the values in the file, or an infinite value.
 */
export function splitValues(values: Float64Array, counts: readonly number[]): Array<Array<number | null>> | { problem: string } {
  if (counts.reduce((sum, count) => sum + count, 0) !== values.length) return { problem: 'its values do not match the counts in its header' }
  const series: Array<Array<number | null>> = []
  let offset = 0
  for (const count of counts) {
    const out = new Array<number | null>(count)
    for (let index = 0; index < count; index++) {
      const value = values[offset + index] as number
      // NaN (not equal to itself) is a gap; anything else must be a finite number.
      if (value !== value) out[index] = null
      else if (value === Number.POSITIVE_INFINITY || value === Number.NEGATIVE_INFINITY) return { problem: 'it holds a value that is not a finite number' }
      else out[index] = value
    }
    series.push(out)
    offset += count
  }
  return series
}
