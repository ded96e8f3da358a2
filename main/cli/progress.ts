import type { Writable } from 'node:stream'
import { formatBytes } from '../services/exports/failures'

/**
 * One progress line on standard error for a long download: bytes, rows when countable, rate,
 * time. On a terminal the line updates in place (carriage return, erase to its end); asked for
 * with --progress elsewhere (a log), it prints a plain line now and then instead.
 */
export interface ProgressLine {
  update(bytes: number, rows: number | null): void
  /** Prints the last figures and ends the line, so what follows starts on a line of its own. */
  end(bytes: number, rows: number | null): void
}

export interface ProgressOptions {
  /** A terminal: update in place. */
  terminal: boolean
  now?: () => number
}

export function createProgressLine(stream: Writable, { terminal, now = () => performance.now() }: ProgressOptions): ProgressLine {
  const started = now()
  let last = -Infinity
  const interval = terminal ? 200 : 1_000

  function text(bytes: number, rows: number | null): string {
    const seconds = (now() - started) / 1000
    const rate = seconds > 0 ? bytes / seconds : 0
    const parts = [formatBytes(bytes), ...(rows === null ? [] : [`${rows.toLocaleString('en-US')} rows`]), `${formatBytes(rate)}/s`, `${seconds.toFixed(1)} s`]
    return parts.join('  ')
  }
  function write(line: string, final: boolean): void {
    // Progress is a courtesy: a closed stderr must not fail the download.
    try {
      stream.write(terminal ? `\r${line}\u001b[K${final ? '\n' : ''}` : `${line}\n`)
    } catch {
      /* ignored */
    }
  }
  return {
    update(bytes, rows) {
      const current = now()
      if (current - last < interval) return
      last = current
      write(text(bytes, rows), false)
    },
    end(bytes, rows) {
      write(text(bytes, rows), true)
    },
  }
}

/** A progress line when standard error is a terminal or --progress asks for one; null otherwise. */
export function progressFor(stream: Writable, forced: boolean): ProgressLine | null {
  const terminal = (stream as { isTTY?: boolean }).isTTY === true
  return terminal || forced ? createProgressLine(stream, { terminal }) : null
}
