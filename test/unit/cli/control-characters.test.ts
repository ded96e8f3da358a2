/**
 * Issue 38 item 16 (review L7): a schedule name with control characters reached the terminal raw
 * (ESC[2J cleared the screen, OSC 0 set the window title, U+202E reversed what followed) and the
 * desktop notification. Schedule names now follow the preset names' rule, and every sentence the
 * command line prints, and every notification, has its control characters taken out.
 */
import { mkdtemp } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { Writable } from 'node:stream'
import type { BrowserWindow, Notification } from 'electron'
import { describe, expect, it } from 'vitest'
import { HIDDEN_CHARACTERS_SENTENCE, scheduleDraftSchema, type ScheduleDraft } from '@contract'
import { writeJson, writeSentence } from '../../../main/cli/io'
import { createAlertNotifier, createExportSignals } from '../../../main/electron/export-signals'
import { memoryKeychain, runInProcess, testServices } from '../../integration/cli/support'

const HOSTILE = 'Evil\u001b[2J\u001b]0;owned-title\u0007\radops-desk: all schedules ran fine\u202e\u009b\u007f'
/** Every character that steers a terminal or reorders text; none may be printed. */
const STEERING = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/

class Collector extends Writable {
  text = ''
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.text += chunk.toString()
    callback()
  }
}

const draft: ScheduleDraft = {
  name: 'Monday revenue file',
  target: { kind: 'preset', name: 'Monday revenue' },
  profileId: 'demo',
  actions: { export: { format: 'csv', folderId: 'folder-1', fileNamePattern: '{preset} {start} to {end}' }, checkAlerts: false },
  cadence: { kind: 'daily', at: '07:30' },
  timezone: 'computer',
  enabled: true,
}

describe('schedule names', () => {
  it('refuse ESC, BEL, a carriage return and the right-to-left override with the preset names’ sentence', () => {
    for (const name of ['Evil\u001b[2J', 'Ding\u0007', 'Over\rwrite', 'Backwards\u202e', HOSTILE]) {
      const parsed = scheduleDraftSchema.safeParse({ ...draft, name })
      expect(parsed.success, JSON.stringify(name)).toBe(false)
      expect(parsed.error?.issues[0]?.message).toBe(HIDDEN_CHARACTERS_SENTENCE)
    }
  })

  it('take plain names, spaces of any kind read as one', () => {
    expect(scheduleDraftSchema.parse({ ...draft, name: '  Monday\u00a0 revenue  ' }).name).toBe('Monday revenue')
    expect(scheduleDraftSchema.parse({ ...draft, name: 'Выручка — понедельник' }).name).toBe('Выручка — понедельник')
  })
})

describe('sentences the command line prints', () => {
  it('lose their control characters and bidi marks in the printing helper, and keep their words and line breaks', async () => {
    const stream = new Collector()
    await writeSentence(stream, `adops-desk: "${HOSTILE}" failed\nsecond line\tend\n`)
    expect(stream.text).not.toMatch(STEERING)
    expect(stream.text).toBe('adops-desk: "Evil[2J]0;owned-titleadops-desk: all schedules ran fine" failed\nsecond line\tend\n')
  })

  it('JSON output is left as it is: JSON escapes what it must, and the line stays valid JSON', async () => {
    const stream = new Collector()
    await writeJson(stream, { schedule: HOSTILE })
    expect((JSON.parse(stream.text) as { schedule: string }).schedule).toBe(HOSTILE)
  })

  it('an error sentence quoting an argument with ESC[2J prints without the ESC', async () => {
    const userData = await mkdtemp(path.join(os.tmpdir(), 'adops-cli-controls-'))
    const run = await runInProcess(['schedules', 'run', HOSTILE], { services: testServices(memoryKeychain()), env: { ADOPS_USER_DATA: userData } })
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/^adops-desk: No schedule is named "Evil\[2J\]0;owned-titleadops-desk: all schedules ran fine"/)
    expect(run.stderr).not.toMatch(STEERING)
    expect(run.stderr.split('\n').filter((line) => line !== '')).toHaveLength(1)
  })
})

describe('desktop notifications', () => {
  function fakeNotifications() {
    const shown: Array<{ title: string; body: string }> = []
    class FakeNotification {
      static isSupported = () => true
      constructor(private readonly options: { title: string; body: string }) {}
      on() {
        return this
      }
      show() {
        shown.push({ title: this.options.title, body: this.options.body })
      }
    }
    return { Notification: FakeNotification as unknown as typeof Notification, shown }
  }
  const unfocused = { isDestroyed: () => false, isFocused: () => false } as unknown as BrowserWindow

  it('show a schedule’s failure and a fired alert without control characters', () => {
    const notifications = fakeNotifications()
    createExportSignals(notifications.Notification, () => unfocused).ended({
      title: `Schedule failed: ${HOSTILE}`,
      body: `"${HOSTILE}" is gone.`,
      failed: true,
    })
    createAlertNotifier(notifications.Notification, () => unfocused)({ title: `Alert: ${HOSTILE}`, body: HOSTILE, onClick: () => undefined })
    expect(notifications.shown).toHaveLength(2)
    for (const shown of notifications.shown) {
      expect(shown.title).not.toMatch(STEERING)
      expect(shown.body).not.toMatch(STEERING)
    }
    expect(notifications.shown[0]?.title).toBe('Schedule failed: Evil[2J]0;owned-titleadops-desk: all schedules ran fine')
  })
})
