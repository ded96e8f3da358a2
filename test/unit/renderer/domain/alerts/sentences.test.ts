import { describe, expect, it } from 'vitest'
import { alertBadge, alertSentence, hiddenForLine, orderedAlerts, unusualWord, usualOf, zScoreTitle } from '../../../../../renderer/src/domain/alerts/sentences'

/** Issue 39, item 7: alerts read as sentences, not "impressions down 54% … (z −27.0)". */
describe('a fired alert in words', () => {
  it('says what happened against the usual weekday', () => {
    expect(alertSentence({ metric: 'impressions', changePct: -54.2, baseline: 24_975.6, bucket: '2026-11-23' })).toBe(
      'Impressions fell 54% below the usual Monday (24,976)',
    )
    expect(alertSentence({ metric: 'ad_requests', changePct: 120, baseline: 3_400, bucket: '2026-11-25 14:00:00' })).toBe(
      'Ad requests rose 120% above the usual Wednesday at 14:00 (3,400)',
    )
  })

  it('reads the weekday from the bucket’s own calendar text, not the browser’s timezone', () => {
    expect(usualOf('2026-11-23T00:00:00')).toBe('the usual Monday at 00:00')
    expect(usualOf('2026-W48')).toBe('the usual')
  })

  it('says how unusual in a plain word, with the number for the hover', () => {
    expect(unusualWord(-27)).toBe('Extremely unusual')
    expect(unusualWord(6.1)).toBe('Very unusual')
    expect(unusualWord(3.2)).toBe('Unusual')
    expect(zScoreTitle(-27)).toMatch(/^Robust z-score −27\.0: /)
  })

  it('lists the most unusual first, then the newest', () => {
    const alert = (id: string, z: number, bucket: string) => ({ id, z, bucket, firedAt: '2026-11-26T10:00:00Z' })
    const ordered = orderedAlerts([
      alert('mild-new', 3.5, '2026-11-25'),
      alert('extreme-old', -27, '2026-11-20'),
      alert('very-new', 6, '2026-11-25'),
      alert('extreme-new', 12, '2026-11-24'),
    ])
    expect(ordered.map((entry) => entry.id)).toEqual(['extreme-new', 'extreme-old', 'very-new', 'mild-new'])
  })

  it('hides every line but the alert’s (and the total) when its link opens Reports', () => {
    const series = [
      { key: 'impressions|1', label: '1 — Alpha', role: 'line' },
      { key: 'impressions|2', label: '2 — Beta', role: 'line' },
      { key: 'impressions|', label: 'Total', role: 'total' },
    ]
    expect(hiddenForLine(series, '2 — Beta')).toEqual(['impressions|1'])
  })

  it('gives a board tile a short badge, not "Alert: impressions either"', () => {
    expect(alertBadge({ metric: 'impressions', changePct: -54.2 })).toBe('Impressions fell 54%')
    expect(alertBadge({ metric: 'impressions', changePct: 4.25 })).toBe('Impressions rose 4.3%')
  })
})
