import { describe, expect, it } from 'vitest'
import { utcOffsetSchema } from '@contract'
import { REPORT_LIMITS } from '../../../../common/limits'
import { wholeWithin } from '../../../../renderer/src/domain/reports/bounds'

describe('wholeWithin: a typed number as a bounded field keeps it', () => {
  it('rounds to a whole number and keeps it inside the bounds', () => {
    expect(wholeWithin(7.4, { min: 1, max: 50 })).toBe(7)
    expect(wholeWithin(7.5, { min: 1, max: 50 })).toBe(8)
    expect(wholeWithin(0, { min: 1, max: 50 })).toBe(1)
    expect(wholeWithin(51, { min: 1, max: 50 })).toBe(50)
    expect(wholeWithin(-13.2, REPORT_LIMITS.utcOffsetHours)).toBe(-12)
    expect(wholeWithin(5.5, REPORT_LIMITS.utcOffsetHours)).toBe(6)
    expect(wholeWithin(20_000, REPORT_LIMITS.categoryLimit)).toBe(10_000)
  })

  it('keeps the timezone field to the offsets the contract accepts', () => {
    const { min, max } = REPORT_LIMITS.utcOffsetHours
    expect(utcOffsetSchema.safeParse(min).success).toBe(true)
    expect(utcOffsetSchema.safeParse(max).success).toBe(true)
    expect(utcOffsetSchema.safeParse(min - 1).success).toBe(false)
    expect(utcOffsetSchema.safeParse(max + 1).success).toBe(false)
  })
})
