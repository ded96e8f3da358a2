import type { LogLevel } from '@contract'
import type { LogFile } from './log-file'
import { createRedactor, redactSecrets, redactValue } from './redact'

export type { LogLevel }

/**
 * What main writes down for support: one line per event (start, connection tests, syncs,
 * reports, exports, errors), each passed through the redaction layer before it is written,
 * so no password, token or signed-in address reaches the file, whoever built the message.
 */
export interface Logger {
  error(message: string, fields?: Record<string, unknown>): void
  warn(message: string, fields?: Record<string, unknown>): void
  info(message: string, fields?: Record<string, unknown>): void
  debug(message: string, fields?: Record<string, unknown>): void
  level(): LogLevel
  setLevel(level: LogLevel): void
  /** A secret value to keep out of the log from now on, even where nothing names it a secret. */
  addSecret(secret: string | undefined): void
  /** Resolves once every line so far is on disk. */
  flush(): Promise<void>
}

const RANK: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 }
/** A line past this is cut: a log line is a pointer for support, not a data dump. */
const MAX_LINE = 16_000

export interface LoggerOptions {
  /** null: lines are formatted and dropped (a host that keeps no log). */
  file: LogFile | null
  level?: LogLevel
  now?: () => Date
}

export function createLogger(options: LoggerOptions): Logger {
  const now = options.now ?? (() => new Date())
  const known = createRedactor()
  let threshold: LogLevel = options.level ?? 'info'

  function write(level: LogLevel, message: string, fields: Record<string, unknown> | undefined): void {
    if (RANK[level] > RANK[threshold] || options.file === null) return
    // Message and fields are cleaned apart: a header pattern in the message must not run on into the fields.
    const data = fields === undefined || Object.keys(fields).length === 0 ? '' : ` ${JSON.stringify(redactValue(fields, known))}`
    // One event, one line: newlines in a message (a stack, a server's text) are written escaped.
    const clean = `${known.redact(redactSecrets(message)).replace(/\r?\n/g, '\\n')}${data}`
    const bounded = clean.length > MAX_LINE ? `${clean.slice(0, MAX_LINE)}…` : clean
    options.file.append(`${now().toISOString()} ${level.toUpperCase().padEnd(5)} ${bounded}\n`)
  }

  return {
    error: (message, fields) => write('error', message, fields),
    warn: (message, fields) => write('warn', message, fields),
    info: (message, fields) => write('info', message, fields),
    debug: (message, fields) => write('debug', message, fields),
    level: () => threshold,
    setLevel(level) {
      threshold = level
    },
    addSecret: (secret) => known.add(secret),
    flush: () => options.file?.flush() ?? Promise.resolve(),
  }
}
