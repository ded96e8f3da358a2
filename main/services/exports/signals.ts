/**
 * What export jobs tell the desktop besides the page: the taskbar's progress and a
 * notification when a job ends unseen. Services never import Electron, so the host passes
 * these in (main/electron/export-signals.ts); the web host has none.
 */
export interface ExportSignals {
  /**
   * Progress of the export jobs as a whole: a fraction from 0 to 1, `'indeterminate'` while
   * jobs run whose size is not known in advance (a download names no length), null when none runs.
   */
  progress(value: number | 'indeterminate' | null): void
  /** A job ended; the host shows it as an OS notification when its window is not focused. */
  ended(notification: { title: string; body: string; failed: boolean }): void
}

/** Opening a finished file: the OS's own programs. The web host has none (its files are in its exports folder). */
export interface ExportShell {
  /** Opens the file with the program the system chooses; rejects with the system's reason. */
  openFile(filePath: string): Promise<void>
  /** Shows the file selected in its folder. */
  showInFolder(filePath: string): void
}
