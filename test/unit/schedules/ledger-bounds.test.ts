import { promises as nodeFs } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { LedgerEntry } from '@contract'
import { createLedger, LEDGER_MAX_BYTES, LedgerNotRotatedError } from '../../../main/services/schedules/ledger'
import { isAppError } from '../../../main/services/errors'
import { memoryKeychain, ownLines, runInProcess, testServices } from '../../integration/cli/support'
import { temporaryFolder } from '../../support/services'

/**
 * Issue 38 item 15: the ledger is read from its end only, whatever its size; a rotation that
 * fails is said, not swallowed; two processes rotating at once lose no line.
 */

const entry = (index: number): LedgerEntry => ({
  id: `run-${index}`,
  scheduleId: 'schedule-1',
  scheduleName: 'Morning file',
  target: { kind: 'preset', name: 'Monday revenue' },
  source: 'os',
  trigger: 'schedule',
  plannedAt: new Date(Date.UTC(2026, 10, 1, 7) + index * 60_000).toISOString(),
  startedAt: new Date(Date.UTC(2026, 10, 1, 7) + index * 60_000).toISOString(),
  durationMs: 1200,
  outcome: 'ok',
  late: false,
  fileName: `file ${index}.csv`,
  alertsFired: null,
  missingTiles: null,
  error: null,
  attempts: 1,
})
const line = (index: number) => `\n${JSON.stringify(entry(index))}\n`

const SPARSE_BYTES = 600 * 1024 * 1024

/** A ledger grown past 512 MB (sparse: it costs no disk), its last lines real ones. */
async function hugeLedger(folder: string): Promise<void> {
  await nodeFs.mkdir(folder, { recursive: true })
  const file = path.join(folder, 'ledger.jsonl')
  await nodeFs.writeFile(file, '')
  await nodeFs.truncate(file, SPARSE_BYTES)
  await nodeFs.appendFile(file, line(1) + line(2) + line(3))
}

/** The node fs, counting the bytes read through file handles; a whole-file read fails the test. */
function countingFs() {
  const counted = { bytes: 0 }
  const fs = {
    ...nodeFs,
    readFile: () => Promise.reject(new Error('the ledger is never read whole')),
    async open(file: string, flags: string, mode?: number) {
      const handle = await nodeFs.open(file, flags, mode)
      return Object.assign(Object.create(handle) as object, {
        async read(buffer: Buffer, offset: number, length: number, position: number) {
          const read = await handle.read(buffer, offset, length, position)
          counted.bytes += read.bytesRead
          return read
        },
        stat: () => handle.stat(),
        close: () => handle.close(),
      })
    },
  } as unknown as typeof nodeFs
  return { fs, counted }
}

describe('reading the ledger', () => {
  it('reads a 600 MB ledger from its end only: its last lines, at most twice the bound read', async () => {
    const folder = await temporaryFolder()
    await hugeLedger(folder)
    const { fs, counted } = countingFs()
    const ledger = createLedger({ folder, fs })
    expect((await ledger.all()).map((read) => read.id)).toEqual(['run-1', 'run-2', 'run-3'])
    expect(counted.bytes).toBeLessThanOrEqual(2 * LEDGER_MAX_BYTES)
    expect(await ledger.query({ limit: 2 })).toMatchObject({ total: 3, entries: [{ id: 'run-3' }, { id: 'run-2' }] })
  })

  it('skips the line the tail starts inside of, and keeps every whole one after it', async () => {
    const folder = await temporaryFolder()
    const ledger = createLedger({ folder, maxBytes: 1_000 })
    // One file grown past twice the bound by hand (rotation never ran): 3 KB of lines.
    await nodeFs.writeFile(path.join(folder, 'ledger.jsonl'), Array.from({ length: 12 }, (_unused, index) => line(index)).join(''))
    const read = (await ledger.all()).map((kept) => kept.id)
    expect(read.at(-1)).toBe('run-11')
    expect(read.length).toBeGreaterThan(2)
    expect(read.length).toBeLessThan(12)
    expect(read).toEqual(read.map((_id, index) => `run-${12 - read.length + index}`))
  })

  it('a ledger that cannot be read is a sentence with no path, not a raw error', async () => {
    const folder = await temporaryFolder()
    // A folder where the ledger file should be: open works, reading fails (EISDIR), as a damaged disk would.
    await nodeFs.mkdir(path.join(folder, 'ledger.jsonl'), { recursive: true })
    const failure = await createLedger({ folder })
      .all()
      .then(
        () => null,
        (error: unknown) => error as Error & { code?: string },
      )
    expect(failure?.message).toMatch(/The run ledger could not be read/)
    expect(failure?.message).not.toContain(folder)
    expect(failure?.code).toBe('storage')
  })
})

describe('the command line over a ledger it cannot take whole', () => {
  const services = testServices(memoryKeychain())
  const cli = (userData: string, argv: string[]) => runInProcess(argv, { services, env: { ADOPS_USER_DATA: userData } })

  it('schedules list and run-due answer over a 600 MB ledger', async () => {
    const userData = await temporaryFolder()
    await hugeLedger(path.join(userData, 'schedules'))
    for (const argv of [
      ['schedules', 'list'],
      ['schedules', 'run-due'],
    ]) {
      const ran = await cli(userData, argv)
      expect(ownLines(ran.stderr), argv.join(' ')).toEqual([])
      expect(ran.code).toBe(0)
    }
  })

  it('run-due exits 1 with a sentence when the ledger cannot be read', async () => {
    const userData = await temporaryFolder()
    await nodeFs.mkdir(path.join(userData, 'schedules', 'ledger.jsonl'), { recursive: true })
    const ran = await cli(userData, ['schedules', 'run-due'])
    expect(ran.code).toBe(1)
    expect(ownLines(ran.stderr)).toEqual([expect.stringMatching(/^adops-desk: The run ledger could not be read\. .+\. \[EISDIR\]$/)])
    expect(ran.stderr).not.toContain(userData)
  })
})

describe('writing the ledger', () => {
  it('a line that cannot be written is a sentence with the system code and no path', async () => {
    // The schedules folder is a file: neither it nor the ledger in it can be made.
    const folder = path.join(await temporaryFolder(), 'schedules')
    await nodeFs.writeFile(folder, 'not a folder')
    const failure = await createLedger({ folder })
      .append(entry(1))
      .then(
        () => null,
        (error: unknown) => error as Error & { code?: string },
      )
    expect(failure?.message).toMatch(/^The run could not be recorded in the run ledger\. .+\.$/)
    expect(isAppError(failure) && failure.details?.errorCode).toMatch(/^(EEXIST|ENOTDIR)$/)
    expect(failure?.message).not.toContain(folder)
    expect(failure?.code).toBe('storage')
  })
})

describe('rotating the ledger', () => {
  it('a rotation that fails is said after the line is written, not swallowed', async () => {
    const folder = await temporaryFolder()
    // As Windows answers a rename over a ledger.1.jsonl another process has open.
    const busy = Object.assign(new Error('EPERM: operation not permitted, rename'), { code: 'EPERM' })
    const fs = { ...nodeFs, rename: () => Promise.reject(busy) } as typeof nodeFs
    await nodeFs.writeFile(path.join(folder, 'ledger.jsonl'), [0, 1, 2, 3].map(line).join(''))
    const ledger = createLedger({ folder, maxBytes: 1_000, fs })
    const failure = await ledger.append(entry(9)).then(
      () => null,
      (error: unknown) => error,
    )
    expect(failure).toBeInstanceOf(LedgerNotRotatedError)
    expect((failure as Error).message).toMatch(/The run was recorded, but the run ledger could not be rotated/)
    expect((failure as Error).message).not.toContain(folder)
    // The run's line is there: the slot counts as handled.
    expect((await ledger.all()).at(-1)?.id).toBe('run-9')
  })

  it('two processes rotating at once lose no line: ledger.1 is never replaced by a few lines', async () => {
    const folder = await temporaryFolder()
    const maxBytes = 2_000
    const lines = Array.from({ length: 8 }, (_unused, index) => line(index)).join('')
    await nodeFs.writeFile(path.join(folder, 'ledger.jsonl'), lines)
    expect(lines.length).toBeGreaterThan(maxBytes)
    // The app is held between its look at the size and its rename until the command line has appended.
    let appended = (): void => undefined
    let renaming = (): void => undefined
    const commandLineDone = new Promise<void>((resolve) => (appended = resolve))
    const appRenaming = new Promise<void>((resolve) => (renaming = resolve))
    const appFs = {
      ...nodeFs,
      rename: async (from: string, to: string) => {
        renaming()
        await commandLineDone
        return nodeFs.rename(from, to)
      },
    } as typeof nodeFs
    const app = createLedger({ folder, maxBytes, fs: appFs })
    const commandLine = createLedger({ folder, maxBytes })
    const appAppend = app.append(entry(100))
    await appRenaming
    await commandLine.append(entry(200))
    appended()
    await appAppend
    const kept = (await commandLine.all()).map((read) => read.id)
    expect(kept.sort()).toEqual([...Array.from({ length: 8 }, (_unused, index) => `run-${index}`), 'run-100', 'run-200'].sort())
    expect((await nodeFs.readdir(folder)).sort()).toEqual(['ledger.1.jsonl', 'ledger.jsonl'])
  })

  it('a rotation lock left by a process that died holding it is taken over; a fresh one is left to its holder', async () => {
    const folder = await temporaryFolder()
    const lock = path.join(folder, 'ledger.rotating.lock')
    const full = [0, 1, 2, 3, 4, 5].map(line).join('')
    const ledger = createLedger({ folder, maxBytes: 1_000 })

    await nodeFs.writeFile(path.join(folder, 'ledger.jsonl'), full)
    await nodeFs.writeFile(lock, '')
    // Held now by another process: this append goes to the full file, unrotated, and says nothing.
    await ledger.append(entry(10))
    expect(await nodeFs.readdir(folder)).not.toContain('ledger.1.jsonl')
    expect((await ledger.all()).at(-1)?.id).toBe('run-10')

    // An hour old: its holder died; the next append rotates.
    const hourAgo = new Date(Date.now() - 3_600_000)
    await nodeFs.utimes(lock, hourAgo, hourAgo)
    await ledger.append(entry(11))
    expect((await nodeFs.readdir(folder)).sort()).toEqual(['ledger.1.jsonl', 'ledger.jsonl'])
    expect(await nodeFs.readFile(path.join(folder, 'ledger.1.jsonl'), 'utf8')).toBe(full + line(10))
    expect((await ledger.all()).slice(-2).map((read) => read.id)).toEqual(['run-10', 'run-11'])
  })
})
