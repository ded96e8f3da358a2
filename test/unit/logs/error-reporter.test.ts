import { EventEmitter } from 'node:events'
import { promises as fs } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { createNotices } from '../../../main/services/notices'
import { createErrorReporter, watchProcessErrors } from '../../../main/services/logs/error-reporter'
import { createLogFile } from '../../../main/services/logs/log-file'
import { createLogger } from '../../../main/services/logs/logger'
import { temporaryFolder } from '../../support/services'

async function setUp() {
  const folder = await temporaryFolder()
  const log = createLogger({ file: createLogFile({ folder }) })
  const notices = createNotices()
  const reporter = createErrorReporter({ log, notices })
  const logText = async (): Promise<string> => {
    await log.flush()
    return fs.readFile(path.join(folder, 'main.log'), 'utf8')
  }
  return { notices, reporter, logText }
}

describe('errors nothing caught', () => {
  it('are logged every time and shown once each as a notice, without their secrets', async () => {
    const { notices, reporter, logText } = await setUp()
    reporter.report('renderer', { kind: 'error', message: 'TypeError: row is undefined', stack: 'TypeError: row is undefined\n    at render (app.js:1:2)' })
    reporter.report('renderer', { kind: 'error', message: 'TypeError: row is undefined' })
    reporter.report('main', { kind: 'unhandledRejection', message: 'fetch https://ops:hunter2@api.example.com failed with Authorization: Bearer abc.def' })
    expect(notices.list().map((notice) => [notice.level, notice.message])).toEqual([
      ['error', expect.stringMatching(/^Something went wrong on this screen \(TypeError: row is undefined\)\. .*Help → Open Logs Folder/)],
      ['error', expect.stringContaining('in the background (fetch https://***@api.example.com failed with Authorization: ***)')],
    ])
    const text = await logText()
    expect(text.match(/unhandled error in renderer: TypeError: row is undefined/g)).toHaveLength(2)
    expect(text).toContain('at render (app.js:1:2)')
    expect(text).not.toContain('hunter2')
    expect(text).not.toContain('abc.def')
  })

  it('stop adding notices after a few distinct ones, so a failing loop cannot bury the window', async () => {
    const { notices, reporter } = await setUp()
    for (let count = 0; count < 20; count += 1) reporter.report('renderer', { kind: 'error', message: `failure ${count}` })
    expect(notices.list().length).toBeLessThanOrEqual(5)
  })

  it('in main: an unhandled rejection or uncaught exception is reported instead of ending the process', async () => {
    const { notices, reporter, logText } = await setUp()
    const processLike = new EventEmitter()
    const detach = watchProcessErrors(processLike, reporter)
    processLike.emit('unhandledRejection', new Error('the demo server went away'))
    processLike.emit('uncaughtException', new RangeError('index out of range'))
    expect(notices.list().map((notice) => notice.message)).toEqual([
      expect.stringContaining('the demo server went away'),
      expect.stringContaining('index out of range'),
    ])
    expect(await logText()).toMatch(/unhandled uncaughtException in main: index out of range/)
    detach()
    expect(processLike.listenerCount('unhandledRejection') + processLike.listenerCount('uncaughtException')).toBe(0)
  })
})
