import type { BrowserWindow, Notification } from 'electron'
import { describe, expect, it } from 'vitest'
import { createExportShell, createExportSignals } from '../../../main/electron/export-signals'

/** The few window methods the signals use, recording what they were told. */
function fakeWindow(focused: boolean) {
  const bars: Array<[number, unknown]> = []
  const window = {
    isDestroyed: () => false,
    isFocused: () => focused,
    isMinimized: () => false,
    restore: () => undefined,
    focus: () => undefined,
    setProgressBar: (value: number, options?: unknown) => void bars.push([value, options]),
  }
  return { window: window as unknown as BrowserWindow, bars }
}

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

describe('export signals on the desktop', () => {
  it('drives the taskbar bar: indeterminate while jobs run, a fraction, then removed', () => {
    const { window, bars } = fakeWindow(true)
    const signals = createExportSignals(fakeNotifications().Notification, () => window)
    signals.progress('indeterminate')
    signals.progress(0.25)
    signals.progress(null)
    expect(bars).toEqual([
      [2, { mode: 'indeterminate' }],
      [0.25, undefined],
      [-1, undefined],
    ])
  })

  it('notifies only when the window is not focused', () => {
    const unseen = fakeNotifications()
    createExportSignals(unseen.Notification, () => fakeWindow(false).window).ended({
      title: 'Export finished',
      body: 'week.csv (3 rows, 120 B)',
      failed: false,
    })
    expect(unseen.shown).toEqual([{ title: 'Export finished', body: 'week.csv (3 rows, 120 B)' }])
    const seen = fakeNotifications()
    createExportSignals(seen.Notification, () => fakeWindow(true).window).ended({ title: 'Export failed', body: 'The disk is full…', failed: true })
    expect(seen.shown).toEqual([])
  })

  it("turns the shell's error text into a rejection", async () => {
    const opened: string[] = []
    const shell = createExportShell({
      openPath: async (file) => (opened.push(file), file.endsWith('.csv') ? '' : 'No application knows this file'),
      showItemInFolder: () => undefined,
    })
    await shell.openFile('/data/week.csv')
    await expect(shell.openFile('/data/week.xyz')).rejects.toThrow('No application knows this file')
    expect(opened).toEqual(['/data/week.csv', '/data/week.xyz'])
  })
})
