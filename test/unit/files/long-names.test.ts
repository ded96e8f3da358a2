import { promises as fs } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { alertRuleSchema } from '@contract'
import { createRuleStore } from '../../../main/services/alerts/rules-store'
import { AppError } from '../../../main/services/errors'
import { exportFailure } from '../../../main/services/exports/failures'
import { writeFileAtomic } from '../../../main/services/files/atomic'
import { idOfSafeFileName, safeFileName } from '../../../main/services/files/json-file'
import { safeBaseName, withExtension, writeChosenFile } from '../../../main/services/files/save-target'
import { createNotices } from '../../../main/services/notices'
import { boardFileNameOf } from '../../../main/services/schedules/board-action'
import { fileNameOf } from '../../../main/services/schedules/runner'
import { temporaryFolder } from '../../support/services'

/**
 * File names are bounded in bytes (255 on ext4, APFS and most others), not in characters: a
 * CJK character is 3 bytes of UTF-8 and 9 once percent-encoded, and an atomic write's temp adds
 * `.` and `.<12 hex>.tmp` around the name. Names made from user text fit with that room, cut on
 * a character boundary.
 */
const NAME_BYTES = 255
const CJK_36 = '週次レポート'.repeat(6)
const temporaryOf = (name: string) => `.${name}.0123456789ab.tmp`
const bytes = (text: string) => Buffer.byteLength(text, 'utf8')
/** A lone half of a surrogate pair: what cutting UTF-16 units in the middle of an emoji leaves. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

describe('file names made from user text', () => {
  it('fit in 255 bytes with the temp suffix and an extension, cut on a character boundary', () => {
    for (const name of [CJK_36.repeat(3), '😀'.repeat(200), `a${'😀'.repeat(120)}`, 'é'.repeat(400), 'x'.repeat(1_000), `${'週'.repeat(100)} 2026-12-01`]) {
      const safe = safeBaseName(name)
      for (const extension of ['csv', 'xlsx', 'json']) expect(bytes(temporaryOf(withExtension(safe, extension)))).toBeLessThanOrEqual(NAME_BYTES)
      // With the day a board file's name gets after it (board-file-maker.ts).
      expect(bytes(temporaryOf(`${safe} 2026-12-01.pdf`))).toBeLessThanOrEqual(NAME_BYTES)
      expect(safe).not.toMatch(LONE_SURROGATE)
      expect(Buffer.from(safe, 'utf8').toString('utf8')).toBe(safe)
    }
    expect(safeBaseName('Weekly EU: revenue')).toBe('Weekly EU- revenue')
  })

  it('lets a schedule pattern of a long CJK name write its file, keeping the dates at its end', async () => {
    const folder = await temporaryFolder()
    const fileName = fileNameOf('{preset} {preset} {preset} {start}', { preset: CJK_36, start: '2026-12-01', end: '2026-12-07', date: '2026-12-08' }, 'xlsx')
    expect(fileName.endsWith('2026-12-01.xlsx')).toBe(true)
    await writeFileAtomic(path.join(folder, fileName), 'data')
    expect(await fs.readdir(folder)).toEqual([fileName])
    const boardFile = boardFileNameOf('{preset} {preset} {preset} {date}', CJK_36, '2026-12-08', 'pdf')
    await writeFileAtomic(path.join(folder, boardFile), 'data')
    expect((await fs.readdir(folder)).sort()).toEqual([boardFile, fileName].sort())
  })

  it('keeps ids as safe file names within the bound: short ones as before, long ones cut with a digest, never read back as another id', () => {
    expect(safeFileName('p1')).toBe('p1')
    expect(safeFileName('a.b/c')).toBe('a%2Eb%2Fc')
    const long = safeFileName(CJK_36)
    // Room for `.json`, a temp's suffix or a corrupt file's `.corrupt-<time>` beside it.
    expect(bytes(`${long}.jsonl.corrupt-2026-12-07T10-00-00-000Z`)).toBeLessThanOrEqual(NAME_BYTES)
    expect(bytes(temporaryOf(`${long}.jsonl`))).toBeLessThanOrEqual(NAME_BYTES)
    expect(safeFileName(`${CJK_36}1`)).not.toBe(safeFileName(`${CJK_36}2`))
    expect(idOfSafeFileName(long)).toBeNull()
    expect(idOfSafeFileName(safeFileName('週次'))).toBe('週次')
  })
})

describe('alert rules of a preset with a long CJK name', () => {
  const rule = alertRuleSchema.parse({ id: 'drop', metric: 'impressions', direction: 'drop', minChangePct: 30 })
  const now = () => new Date('2026-12-07T10:00:00Z')

  it('are saved and read back by a new store', async () => {
    const folder = await temporaryFolder()
    await createRuleStore({ folder, notices: createNotices(), now }).save(CJK_36, [rule])
    const read = await createRuleStore({ folder, notices: createNotices(), now }).read(CJK_36)
    expect(read.rules.map((kept) => kept.id)).toEqual(['drop'])
    expect(read.savedAt).toBe('2026-12-07T10:00:00.000Z')
  })

  it('saved under the earlier file name (the percent-encoded name key) are still found, and move to the new name', async () => {
    const folder = await temporaryFolder()
    const earlier = `${encodeURIComponent('週次レポート'.repeat(2)).replace(/\./g, '%2E')}.json`
    await fs.mkdir(path.join(folder, 'rules'), { recursive: true })
    await fs.writeFile(
      path.join(folder, 'rules', earlier),
      JSON.stringify({ version: 1, preset: '週次レポート'.repeat(2), savedAt: '2026-11-01T00:00:00.000Z', rules: [rule] }),
    )
    const notices = createNotices()
    const store = createRuleStore({ folder, notices, now })
    expect((await store.read('週次レポート'.repeat(2))).rules.map((kept) => kept.id)).toEqual(['drop'])
    expect(await fs.readdir(path.join(folder, 'rules'))).not.toContain(earlier)
    expect((await createRuleStore({ folder, notices, now }).read('週次レポート'.repeat(2))).savedAt).toBe('2026-11-01T00:00:00.000Z')
    await store.remove('週次レポート'.repeat(2))
    expect(await fs.readdir(path.join(folder, 'rules'))).toEqual([])
    expect(notices.list()).toEqual([])
  })
})

describe('a name that cannot fit', () => {
  it('is "too long", with the limit, never "check the disk"', async () => {
    const folder = await temporaryFolder()
    const refusal = await writeChosenFile(path.join(folder, `${'週'.repeat(100)}.csv`), 'data').catch((error: unknown) => error)
    expect(refusal).toBeInstanceOf(AppError)
    expect((refusal as AppError).message).toMatch(/too long.*255 bytes/)
    expect((refusal as AppError).message).not.toMatch(/disk is not full|Check the disk/)
    const failure = exportFailure(new AppError('storage', 'x', { errorCode: 'ENAMETOOLONG' }), path.join(folder, 'report.csv'), 0)
    expect(failure).toMatch(/too long.*255 bytes/)
    expect(failure).not.toMatch(/Check the disk/)
  })
})
