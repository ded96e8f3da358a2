import { promises as fs } from 'node:fs'
import path from 'node:path'
import type { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import type { EventPayload } from '@contract'
import { AppError } from '../../../main/services/errors'
import { nodeExportFs } from '../../../main/services/exports/fs'
import type { ExportRecord } from '../../../main/services/exports/job-history'
import { createLiveJob, QUIT_SENTENCE, type JobContext } from '../../../main/services/exports/job'
import type { ReportingClient } from '../../../main/services/reporting/client'
import { supplyCsvOrder } from '../../support/export-orders'
import { temporaryFolder } from '../../support/services'

/**
 * One job's state machine, without the queue, the history or the platform: a scripted
 * download, a hand-set monotonic clock (so the progress throttle is checked without timing),
 * and the record changes, writes and progress events it reports.
 */

interface Step {
  /** The monotonic time when this chunk arrives. */
  at: number
  text: string
}

/** A download that yields its chunks only when read (no read-ahead), then stalls until aborted when `stall`. */
function download(steps: Step[], clock: { time: number }, signal: AbortSignal, stall = false): Readable {
  async function* chunks() {
    for (const step of steps) {
      clock.time = step.at
      yield Buffer.from(step.text)
    }
    if (stall) {
      await new Promise((_resolve, reject) => {
        if (signal.aborted) reject(new DOMException('aborted', 'AbortError'))
        signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')), { once: true })
      })
    }
  }
  const iterator = chunks()
  return Object.assign(iterator, { destroy: () => void iterator.return(undefined) }) as unknown as Readable
}

async function setup(options: { steps?: Step[]; stall?: boolean; fail?: Error } = {}) {
  const folder = await temporaryFolder('adops-job-')
  const target = path.join(folder, 'report.csv')
  const clock = { time: 0 }
  const changes: ExportRecord[] = []
  const persisted: string[] = []
  const finished: string[] = []
  const progress: Array<EventPayload<'onExportProgress'>> = []
  let exports = 0
  const reporting = {
    async export(_request: unknown, call: { signal: AbortSignal }) {
      exports += 1
      if (options.fail) throw options.fail
      return { body: download(options.steps ?? [], clock, call.signal, options.stall), contentType: 'text/csv', fileName: null }
    },
  } as unknown as ReportingClient
  const context: JobContext = {
    reportingOf: async () => reporting,
    fs: nodeExportFs,
    events: {
      emit: ((name: string, payload: EventPayload<'onExportProgress'>) =>
        void (name === 'onExportProgress' && progress.push(payload))) as JobContext['events']['emit'],
    },
    now: () => new Date('2026-11-25T10:00:00.000Z'),
    monotonic: () => clock.time,
    progressIntervalMs: 100,
    changed: (record) => void changes.push(record),
    persist: async (record) => void persisted.push(record.state),
    finished: async (record) => void finished.push(record.state),
  }
  const job = createLiveJob(supplyCsvOrder(target), context)
  return { job, folder, target, clock, changes, persisted, finished, progress, exportCalls: () => exports }
}

const lines = (count: number, from = 0) => Array.from({ length: count }, (_, index) => `row${from + index},1\n`).join('')

describe('one export job', () => {
  it('goes queued -> running -> done, writes the file, and sends progress at most once per interval', async () => {
    const steps: Step[] = [
      { at: 10, text: `name,imps\n${lines(1)}` },
      { at: 50, text: lines(1, 1) },
      { at: 120, text: lines(2, 2) },
      { at: 130, text: lines(1, 4) },
      { at: 260, text: lines(1, 5) },
    ]
    const { job, target, changes, persisted, finished, progress } = await setup({ steps })
    expect(job.record).toMatchObject({ state: 'queued', fileName: 'report.csv', folderName: expect.any(String), startedAt: null })
    job.announceQueued()
    await job.run()
    const record = await job.ended
    expect(record).toMatchObject({ state: 'done', rows: 6, capped: false, notes: [], error: null, durationMs: 260 })
    expect(await fs.readFile(target, 'utf8')).toBe(steps.map((step) => step.text).join(''))
    expect(persisted).toEqual(['running'])
    expect(finished).toEqual(['done'])
    expect(changes.at(-1)).toBe(record)
    // Queued, running, then one event per 100 ms of arrivals (120 and 260, not 130), then the end.
    expect(progress.map(({ state, rows }) => [state, rows])).toEqual([
      ['queued', null],
      ['running', 0],
      ['running', 4],
      ['running', 6],
      ['running', 6],
    ])
    expect(progress[2]?.elapsedMs).toBe(120)
  })

  it('stopped while queued, it ends at once as cancelled (or interrupted on quit) and never asks the platform', async () => {
    const cancelled = await setup()
    const ended = cancelled.job.stop('cancel')
    cancelled.job.endUnstarted('cancel')
    expect(await ended).toMatchObject({ state: 'cancelled', notes: ['Cancelled before it started.'], durationMs: null, startedAt: null })
    await cancelled.job.run()
    expect(cancelled.exportCalls()).toBe(0)
    expect(cancelled.finished).toEqual(['cancelled'])

    const quit = await setup()
    const quitEnded = quit.job.stop('quit')
    quit.job.endUnstarted('quit')
    expect(await quitEnded).toMatchObject({ state: 'interrupted', error: QUIT_SENTENCE })
  })

  it.each([
    ['cancel', { state: 'cancelled', notes: ['Cancelled; nothing was saved.'], error: null }],
    ['quit', { state: 'interrupted', error: QUIT_SENTENCE }],
  ] as const)('stopped mid-stream (%s), it aborts the download and leaves no file', async (why, expected) => {
    const { job, folder, progress } = await setup({ steps: [{ at: 5, text: `name,imps\n${lines(3)}` }], stall: true })
    const running = job.run()
    while (progress.length === 0) await new Promise((resolve) => setImmediate(resolve))
    const ended = await job.stop(why)
    await running
    expect(ended).toMatchObject(expected)
    expect(await fs.readdir(folder)).toEqual([])
  })

  it('a platform error fails the job with a sentence; the job itself does not throw', async () => {
    const { job, folder } = await setup({ fail: new AppError('server', 'The reporting service is unavailable.') })
    await job.run()
    const record = await job.ended
    expect(record.state).toBe('failed')
    expect(record.error).toMatch(/\S/)
    expect(await fs.readdir(folder)).toEqual([])
  })
})
