import { describe, expect, it } from 'vitest'
import { formatBytes, formatElapsed, formatRate, fraction } from '../../../../renderer/src/domain/exports/progress'

describe('export progress figures', () => {
  it('reads bytes, rates and times the way people say them', () => {
    expect(formatBytes(512)).toBe('512 B')
    expect(formatBytes(4096)).toBe('4.0 KB')
    expect(formatBytes(218_198)).toBe('213 KB')
    expect(formatBytes(5 * 1024 ** 3)).toBe('5.0 GB')
    expect(formatRate(2.5 * 1024 * 1024)).toBe('2.5 MB/s')
    expect(formatElapsed(4_200)).toBe('4.2 s')
    expect(formatElapsed(185_000)).toBe('3 min 05 s')
    expect(formatElapsed(3_720_000)).toBe('1 h 02 min')
  })

  it('fills the bar only when rows and an exact estimate say how far the job is', () => {
    expect(fraction({ state: 'running', rows: 250 }, 1_000)).toBe(0.25)
    expect(fraction({ state: 'running', rows: null }, 1_000)).toBeNull()
    expect(fraction({ state: 'running', rows: 250 }, null)).toBeNull()
    // More rows than expected: the estimate was wrong, the bar must not sit full while the job runs.
    expect(fraction({ state: 'running', rows: 1_500 }, 1_000)).toBeNull()
    expect(fraction({ state: 'done', rows: null }, null)).toBe(1)
    expect(fraction({ state: 'failed', rows: 250 }, 1_000)).toBeNull()
  })
})
