import { promises as fs } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { createLogFile } from '../../../main/services/logs/log-file'
import { createLogger } from '../../../main/services/logs/logger'
import { temporaryFolder } from '../../support/services'

const read = (folder: string, name: string): Promise<string> => fs.readFile(path.join(folder, name), 'utf8')

describe('the log file', () => {
  it('rotates by size and keeps a bounded number of files, oldest dropped', async () => {
    const folder = path.join(await temporaryFolder(), 'logs')
    const file = createLogFile({ folder, maxBytes: 100, files: 3 })
    // Each line is 40 bytes: two fit in 100, the third starts a new file.
    for (let line = 0; line < 9; line += 1) file.append(`line ${String(line).padStart(2, '0')} ${'x'.repeat(31)}\n`)
    await file.flush()
    expect((await fs.readdir(folder)).sort()).toEqual(['main.1.log', 'main.2.log', 'main.log'])
    for (const name of await fs.readdir(folder)) expect((await fs.stat(path.join(folder, name))).size).toBeLessThanOrEqual(100)
    // Nothing in between was lost or reordered: the newest lines are in main.log, older ones before.
    const text = `${await read(folder, 'main.2.log')}${await read(folder, 'main.1.log')}${await read(folder, 'main.log')}`
    const numbers = [...text.matchAll(/line (\d+)/g)].map((match) => Number(match[1]))
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b))
    expect(numbers.at(-1)).toBe(8)
    expect(numbers).not.toContain(0)
  })

  it('carries on from the size already on disk after a restart', async () => {
    const folder = await temporaryFolder()
    const first = createLogFile({ folder, maxBytes: 100, files: 2 })
    first.append(`${'a'.repeat(79)}\n`)
    await first.flush()
    const second = createLogFile({ folder, maxBytes: 100, files: 2 })
    second.append(`${'b'.repeat(39)}\n`)
    await second.flush()
    expect(await read(folder, 'main.1.log')).toBe(`${'a'.repeat(79)}\n`)
    expect(await read(folder, 'main.log')).toBe(`${'b'.repeat(39)}\n`)
  })

  it('never throws when the folder cannot be written, and says so once', async () => {
    const blocker = path.join(await temporaryFolder(), 'a-file')
    await fs.writeFile(blocker, '')
    const errors: unknown[] = []
    const file = createLogFile({ folder: path.join(blocker, 'logs'), onError: (error) => errors.push(error) })
    file.append('one\n')
    await file.flush()
    file.append('two\n')
    await file.flush()
    expect(errors).toHaveLength(1)
  })
})

describe('the logger', () => {
  it('writes one line per event, at or above its level, with redacted fields', async () => {
    const folder = await temporaryFolder()
    const log = createLogger({ file: createLogFile({ folder }), level: 'info', now: () => new Date('2026-03-01T10:00:00.000Z') })
    log.debug('not written')
    log.info('connection test p1: workflow ok', { ms: 12 })
    log.warn('sign-in failed\nsecond line', { details: { body: { password: 'hunter2' }, url: 'https://ops:pw@x.example/' } })
    log.addSecret('my-known-secret')
    log.error('server echoed my-known-secret and my-known-secret')
    log.setLevel('debug')
    log.debug('now written')
    await log.flush()
    expect((await read(folder, 'main.log')).split('\n')).toEqual([
      '2026-03-01T10:00:00.000Z INFO  connection test p1: workflow ok {"ms":12}',
      '2026-03-01T10:00:00.000Z WARN  sign-in failed\\nsecond line {"details":{"body":{"password":"***"},"url":"https://***@x.example/"}}',
      '2026-03-01T10:00:00.000Z ERROR server echoed *** and ***',
      '2026-03-01T10:00:00.000Z DEBUG now written',
      '',
    ])
  })
})
