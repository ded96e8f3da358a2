import type { EventEmitter } from 'node:events'
import { describeThrown } from '../../../common/errors'
import type { Notices } from '../notices'
import type { Logger } from './logger'
import { redactSecrets } from './redact'

export type ErrorSource = 'main' | 'renderer'

export interface ReportedError {
  message: string
  stack?: string | undefined
  /** How it surfaced: `uncaughtException`, `unhandledRejection`, the page's `error`… */
  kind: string
}

/**
 * Errors nothing caught, in main or in the page. Before, they reached nobody (or a blank
 * window); now each is written to the log and shown as a notice, once: the same error again
 * is only logged, and after a few distinct ones the rest are only logged, so a loop that
 * keeps failing cannot bury the window in notices.
 */
export interface ErrorReporter {
  report(source: ErrorSource, error: ReportedError): void
}

const MAX_NOTICES = 5
const MAX_SHOWN = 200

export function createErrorReporter({ log, notices }: { log: Logger; notices: Pick<Notices, 'add'> }): ErrorReporter {
  const shown = new Set<string>()
  return {
    report(source, error) {
      log.error(`unhandled ${error.kind} in ${source}: ${error.message}`, error.stack === undefined ? undefined : { stack: error.stack })
      const key = `${source}\u0000${error.message}`
      if (shown.has(key) || shown.size >= MAX_NOTICES) return
      shown.add(key)
      const what = redactSecrets(error.message).slice(0, MAX_SHOWN)
      const where = source === 'main' ? 'in the background' : 'on this screen'
      notices.add({
        level: 'error',
        message: `Something went wrong ${where} (${what}). AdOps Desk kept running and wrote the details to its log (Help → Open Logs Folder). If something looks wrong, restart the app.`,
      })
    },
  }
}

export { describeThrown }

/**
 * Catches what main lets fall: with a listener, Node (and Electron) neither exit nor show a
 * crash box; the error is reported instead. Returns the detach.
 */
export function watchProcessErrors(target: Pick<EventEmitter, 'on' | 'off'>, reporter: ErrorReporter): () => void {
  const onRejection = (reason: unknown): void => reporter.report('main', { kind: 'unhandledRejection', ...describeThrown(reason) })
  const onException = (error: unknown): void => reporter.report('main', { kind: 'uncaughtException', ...describeThrown(error) })
  target.on('unhandledRejection', onRejection)
  target.on('uncaughtException', onException)
  return () => {
    target.off('unhandledRejection', onRejection)
    target.off('uncaughtException', onException)
  }
}
