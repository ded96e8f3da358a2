import type { BrowserWindow, Notification as ElectronNotification, Shell } from 'electron'
import { withoutControlCharacters } from '../../common/control-characters'
import type { AlertNotifier } from '../services/alerts/service'
import type { ExportShell, ExportSignals } from '../services/exports/signals'

/** A notification quotes names (a schedule's, a preset's, a platform's line): their control characters never reach the desktop. */
function plain(text: { title: string; body: string }): { title: string; body: string } {
  return { title: withoutControlCharacters(text.title), body: withoutControlCharacters(text.body) }
}

/**
 * Export jobs on the desktop: the window's taskbar / dock progress bar while jobs run, and an
 * OS notification when one ends while the user is looking elsewhere (a 1,000,000-row export
 * takes long enough to switch windows). `Notification` is passed in like every Electron API.
 */
export function createExportSignals(Notification: typeof ElectronNotification, window: () => BrowserWindow | null): ExportSignals {
  return {
    progress(value) {
      const target = window()
      if (target === null || target.isDestroyed()) return
      // Electron: a value below 0 removes the bar, above 1 shows it indeterminate.
      if (value === null) target.setProgressBar(-1)
      else if (value === 'indeterminate') target.setProgressBar(2, { mode: 'indeterminate' })
      else target.setProgressBar(Math.min(1, Math.max(0, value)))
    },
    ended({ title, body, failed }) {
      const target = window()
      if (target !== null && !target.isDestroyed() && target.isFocused()) return
      if (!Notification.isSupported()) return
      const notification = new Notification({ ...plain({ title, body }), urgency: failed ? 'critical' : 'normal', silent: !failed })
      // Clicking it brings the app back, where the jobs panel says the rest.
      notification.on('click', () => {
        const current = window()
        if (current === null || current.isDestroyed()) return
        if (current.isMinimized()) current.restore()
        current.focus()
      })
      notification.show()
    },
  }
}

/** Opening finished exports with the system's programs. */
export function createExportShell(shell: Pick<Shell, 'openPath' | 'showItemInFolder'>): ExportShell {
  return {
    async openFile(filePath) {
      // openPath answers an error text instead of rejecting.
      const problem = await shell.openPath(filePath)
      if (problem !== '') throw new Error(problem)
    },
    showInFolder: (filePath) => shell.showItemInFolder(filePath),
  }
}

/**
 * Fired alerts on the desktop: shown whether or not the window is focused (an incident is
 * news either way); a click brings the window back and `onClick` opens the alert in it.
 */
export function createAlertNotifier(Notification: typeof ElectronNotification, window: () => BrowserWindow | null): AlertNotifier {
  return ({ title, body, onClick }) => {
    if (!Notification.isSupported()) return
    const notification = new Notification({ ...plain({ title, body }), urgency: 'critical' })
    notification.on('click', () => {
      const current = window()
      if (current !== null && !current.isDestroyed()) {
        if (current.isMinimized()) current.restore()
        current.focus()
      }
      onClick()
    })
    notification.show()
  }
}
