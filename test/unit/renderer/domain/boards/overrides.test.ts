import { describe, expect, it } from 'vitest'
import { boardConnection } from '@contract'
import { formOfOverrides, overridesOfForm, overridesText, tileOverrideNote } from '../../../../../renderer/src/domain/boards/overrides'

describe("the Overrides editor's form", () => {
  it('round-trips every override, and keeps what a switched-off part held without saving it', () => {
    const overrides = { dates: { start: '-30d', end: '-1d' }, timezone: { mode: 'fixed' as const, offset: -5 }, profileId: 'profile-eu' }
    expect(overridesOfForm(formOfOverrides(overrides))).toEqual(overrides)
    const off = { ...formOfOverrides(overrides), datesOn: false, timezoneOn: false }
    expect(overridesOfForm(off)).toEqual({ dates: null, timezone: null, profileId: 'profile-eu' })
    expect(overridesOfForm({ ...off, datesOn: true })).toEqual({ dates: { start: '-30d', end: '-1d' }, timezone: null, profileId: 'profile-eu' })
    // A board written before the connection override: the active connection.
    expect(formOfOverrides({ dates: null, timezone: null }).profileId).toBeNull()
  })

  it('says what the board overrides, naming a connection by its name, and what each tile takes from it', () => {
    const name = (id: string) => (id === 'profile-eu' ? 'EU platform' : 'a deleted connection')
    expect(overridesText({ dates: null, timezone: null, profileId: null }, name)).toBeNull()
    expect(overridesText({ dates: { start: '-7d', end: '-1d' }, timezone: { mode: 'fixed', offset: 2 }, profileId: 'profile-eu' }, name)).toBe(
      "Every tile uses the board's dates -7d → -1d and timezone UTC+2 and connection EU platform.",
    )
    expect(tileOverrideNote({ dates: { start: '-7d', end: '-1d' }, timezone: { mode: 'os' }, profileId: null })).toBe("Board's dates and timezone")
    expect(tileOverrideNote({ dates: null, timezone: null, profileId: 'profile-eu' })).toBeNull()
  })

  it("runs on the board's connection when it names one, else the one given", () => {
    expect(boardConnection({ dates: null, timezone: null, profileId: 'profile-eu' }, 'active')).toBe('profile-eu')
    expect(boardConnection({ dates: null, timezone: null, profileId: null }, 'active')).toBe('active')
    expect(boardConnection({ dates: null, timezone: null }, null)).toBeNull()
  })
})
