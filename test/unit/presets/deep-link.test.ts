import { describe, expect, it } from 'vitest'
import { boardLink, parsePresetLink, presetLink, presetLinkInArgv } from '../../../main/services/presets/deep-link'

describe('adopsdesk://preset/<name> links', () => {
  it('reads the name, URL-decoded, whatever the OS added', () => {
    expect(parsePresetLink('adopsdesk://preset/Weekly%20EU')).toEqual({ name: 'Weekly EU' })
    expect(parsePresetLink('adopsdesk://preset/Weekly%20EU/')).toEqual({ name: 'Weekly EU' })
    expect(parsePresetLink('ADOPSDESK://Preset/Revenue%20%2F%20day')).toEqual({ name: 'Revenue / day' })
    expect(parsePresetLink('adopsdesk://preset/A/B')).toEqual({ name: 'A/B' })
    expect(parsePresetLink('adopsdesk:preset/Daily')).toEqual({ name: 'Daily' })
    expect(parsePresetLink('adopsdesk://preset/%D0%9E%D1%82%D1%87%D1%91%D1%82')).toEqual({ name: 'Отчёт' })
    expect(parsePresetLink('  adopsdesk://preset/%20Padded%20  ')).toEqual({ name: 'Padded' })
  })

  it('round-trips every name through presetLink', () => {
    for (const name of ['Weekly EU', 'A/B & C?', '100% #1', 'Café', 'x'.repeat(120)]) expect(parsePresetLink(presetLink(name))).toEqual({ name })
  })

  it('says why a link of ours opens nothing, and ignores other URLs', () => {
    expect(parsePresetLink('adopsdesk://preset/')).toEqual({ problem: 'The link names no preset.' })
    expect(parsePresetLink('adopsdesk://report/Weekly')).toEqual({
      problem: 'The link does not open a preset or a board (adopsdesk://preset/<name>, adopsdesk://board/<name>).',
    })
    expect(parsePresetLink('adopsdesk://preset/%E0%A4%A')).toEqual({ problem: 'The preset name in the link is not properly encoded.' })
    expect(parsePresetLink('adopsdesk://preset/Tab%09inside')).toMatchObject({ problem: expect.stringContaining('control characters') })
    expect(parsePresetLink(`adopsdesk://preset/${'x'.repeat(121)}`)).toMatchObject({ problem: expect.stringContaining('at most 120') })
    expect(parsePresetLink('https://example.com/preset/Weekly')).toBeNull()
  })

  it('reads adopsdesk://board/<name> as a board to open, with the same name rule', () => {
    expect(parsePresetLink('adopsdesk://board/Monday%20board/')).toEqual({ board: 'Monday board' })
    expect(parsePresetLink(boardLink('A/B & C?'))).toEqual({ board: 'A/B & C?' })
    expect(parsePresetLink('adopsdesk://board/')).toEqual({ problem: 'The link names no board.' })
    expect(parsePresetLink('adopsdesk://board/Tab%09inside')).toMatchObject({ problem: expect.stringContaining("The link's board name is not valid") })
  })

  it("finds the link among a second launch's arguments", () => {
    expect(presetLinkInArgv(['/usr/bin/adops-desk', '--enable-features=x', 'adopsdesk://preset/Daily'])).toBe('adopsdesk://preset/Daily')
    expect(presetLinkInArgv(['C:\\AdOps Desk\\AdOps Desk.exe'])).toBeNull()
  })
})
