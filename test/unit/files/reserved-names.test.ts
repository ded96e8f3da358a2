import { describe, expect, it } from 'vitest'
import { safeBaseName, withExtension } from '../../../main/services/files/save-target'

/**
 * Windows keeps CON, PRN, AUX, NUL, COM1–9 and LPT1–9 for devices, in any case and whatever the
 * extension: `CON.csv` opens the console, not a file. The names schedules, boards and exports
 * write are made safe on every OS, since files travel (a shared folder, a USB stick, git).
 */
const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i
/** The part Windows compares: up to the first dot, trailing spaces dropped. */
const deviceStem = (fileName: string) => (fileName.split('.')[0] ?? '').replace(/[ ]+$/, '')

describe('file names that Windows keeps for devices', () => {
  it('are never made, whatever the case, extension or trailing dots and spaces', () => {
    const names = ['CON', 'con', 'Prn', 'AUX', 'nul', 'COM1', 'com9', 'LPT1', 'lpt9', 'COM¹', 'CON.csv', 'nul.tar', 'AUX. ', 'CON .csv', ' LPT3..', 'con.']
    for (const name of names) {
      const safe = safeBaseName(name)
      expect(deviceStem(safe), `${name} → ${safe}`).not.toMatch(RESERVED)
      expect(deviceStem(withExtension(safe, 'csv')), `${name} → ${safe}`).not.toMatch(RESERVED)
    }
  })

  it('leaves names that only start like one alone', () => {
    for (const name of ['CONSOLE', 'Contoso report', 'COM10', 'nullable', 'AUX report', 'LPT']) expect(safeBaseName(name)).toBe(name)
  })
})
