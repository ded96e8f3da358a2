import { describe, expect, it } from 'vitest'
import { decodeKeptFile, encodeKeptFile, splitValues } from '../../../main/services/results/kept-file'

const series = [[1.5, null, -2e15, 0], [Number.MAX_VALUE, Number.MIN_VALUE], []]

function roundTrip(bytes: Buffer) {
  const decoded = decodeKeptFile(bytes)
  if ('problem' in decoded) throw new Error(decoded.problem)
  const { valueCounts } = decoded.header as { valueCounts: number[] }
  return { header: decoded.header, values: splitValues(decoded.values, valueCounts) }
}

describe('the kept result file', () => {
  it('round-trips the header and every value, gaps as gaps, with the values on an 8-byte boundary', () => {
    const bytes = encodeKeptFile({ kind: 'chart', note: 'émoji ✓ and "quotes"' }, series)
    const headerEnd = bytes.indexOf('\n', bytes.indexOf('\n') + 1) + 1
    const valuesStart = bytes.length - 6 * 8
    expect(headerEnd).toBeLessThanOrEqual(valuesStart)
    expect(valuesStart % 8).toBe(0)
    expect(bytes.toString('latin1', headerEnd, valuesStart).trim()).toBe('')
    expect(roundTrip(bytes)).toEqual({ header: { kind: 'chart', note: 'émoji ✓ and "quotes"', valueCounts: [4, 2, 0] }, values: series })
  })

  it('reads values that do not sit on an 8-byte boundary in memory (a slice of a larger buffer) by copying them', () => {
    const bytes = encodeKeptFile({ kind: 'chart' }, series)
    const shifted = Buffer.alloc(bytes.length + 3)
    bytes.copy(shifted, 3)
    expect(roundTrip(shifted.subarray(3)).values).toEqual(series)
  })

  it('says what is wrong with a file that is not one, has no header line, or is cut inside its values', () => {
    const bytes = encodeKeptFile({ kind: 'chart' }, series)
    expect(decodeKeptFile(Buffer.from('{"version":2}'))).toEqual({ problem: 'it is not a kept result file' })
    expect(decodeKeptFile(Buffer.from('AdOps Desk kept result\n{"kind":'))).toEqual({ problem: 'it is cut short' })
    expect(decodeKeptFile(Buffer.from('AdOps Desk kept result\n{"kind":\n'))).toMatchObject({ problem: expect.stringMatching(/^its header is not valid JSON/) })
    expect(decodeKeptFile(bytes.subarray(0, bytes.length - 3))).toEqual({ problem: 'its values are cut short' })
  })

  it('refuses counts that do not add up and values that are not finite numbers', () => {
    expect(splitValues(new Float64Array([1, 2, 3]), [2])).toEqual({ problem: 'its values do not match the counts in its header' })
    expect(splitValues(new Float64Array([1, Number.NEGATIVE_INFINITY]), [2])).toEqual({ problem: 'it holds a value that is not a finite number' })
    expect(splitValues(new Float64Array([Number.NaN, 4]), [1, 1])).toEqual([[null], [4]])
  })
})
