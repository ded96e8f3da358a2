import { afterEach, describe, expect, it, vi } from 'vitest'
import { formatMinutesOffset, zoneOffsets, zoneWarnings } from '../../../../renderer/src/domain/reports/timezone'

describe('this computer’s time zone', () => {
  afterEach(() => {
    vi.unstubAllEnvs()
  })

  it('has no warning for a whole-hour zone without daylight saving', () => {
    expect(zoneWarnings({ current: 180, january: 180, july: 180 })).toEqual([])
    expect(zoneWarnings({ current: 0, january: 0, july: 0 })).toEqual([])
  })

  it('warns when January and July differ (daylight saving)', () => {
    const warnings = zoneWarnings({ current: 60, january: 60, july: 120 })
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/daylight saving time \(UTC\+1 in January, UTC\+2 in July\)/)
  })

  it('warns when the offset is not a whole hour, and on both at once', () => {
    expect(zoneWarnings({ current: 330, january: 330, july: 330 })[0]).toMatch(/UTC\+5:30, but the platform takes whole hours only/)
    expect(zoneWarnings({ current: 630, january: 630, july: 570 })).toHaveLength(2)
  })

  it('reads January, July and the current offset from the clock', () => {
    vi.stubEnv('TZ', 'Europe/Paris')
    expect(zoneOffsets(new Date(Date.UTC(2026, 6, 15, 12)))).toEqual({ current: 120, january: 60, july: 120 })
    vi.stubEnv('TZ', 'Asia/Kolkata')
    expect(zoneOffsets(new Date(Date.UTC(2026, 0, 15, 12)))).toEqual({ current: 330, january: 330, july: 330 })
    vi.stubEnv('TZ', 'America/Sao_Paulo')
    expect(zoneOffsets(new Date(Date.UTC(2026, 0, 15, 12)))).toEqual({ current: -180, january: -180, july: -180 })
  })

  it('formats offsets in minutes', () => {
    expect(formatMinutesOffset(0)).toBe('UTC')
    expect(formatMinutesOffset(-210)).toBe('UTC−3:30')
    expect(formatMinutesOffset(345)).toBe('UTC+5:45')
  })
})
