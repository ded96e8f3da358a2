import { RENDERER_ERROR_LIMITS, type ChannelInput } from '@contract'
import { describeThrown } from '../../../common/errors'

export type RendererErrorReport = ChannelInput<'app:reportRendererError'>

/** Where errors come from and where they go: the window, and main's `app:reportRendererError`. Passed in so a test can use its own. */
export interface ErrorReportingTarget {
  addEventListener(type: 'error', listener: (event: ErrorEvent) => void): void
  addEventListener(type: 'unhandledrejection', listener: (event: PromiseRejectionEvent) => void): void
  removeEventListener(type: 'error', listener: (event: ErrorEvent) => void): void
  removeEventListener(type: 'unhandledrejection', listener: (event: PromiseRejectionEvent) => void): void
}

export type SendReport = (report: RendererErrorReport) => Promise<unknown>

/** Text cut to what the channel accepts: a longer report would be refused and the error lost. */
function cut(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`
}

export { describeThrown }

/**
 * Errors nothing in the page caught reach main (logged, shown once as a notice) instead of
 * nobody. Each distinct message is sent once, so a render loop that keeps failing sends one
 * report; a report that fails itself is dropped, never reported, so it cannot feed a loop.
 * Returns the detach.
 */
export function installErrorReporting(target: ErrorReportingTarget, send: SendReport): () => void {
  const sent = new Set<string>()

  function report(kind: RendererErrorReport['kind'], thrown: { message: string; stack?: string }): void {
    const message = cut(thrown.message || 'Unknown error', RENDERER_ERROR_LIMITS.message)
    if (sent.has(message)) return
    sent.add(message)
    const stack = thrown.stack === undefined ? undefined : cut(thrown.stack, RENDERER_ERROR_LIMITS.stack)
    try {
      send(stack === undefined ? { kind, message } : { kind, message, stack }).catch(() => undefined)
    } catch {
      // The bridge itself is broken: there is nobody left to tell.
    }
  }

  const onError = (event: ErrorEvent): void => {
    // The browser's note that a ResizeObserver callback (ECharts' autoresize, our row window)
    // changed the layout it observed: the next frame delivers the rest. Nothing failed, so the
    // user is not told something went wrong.
    if ((event.error === undefined || event.error === null) && /^ResizeObserver loop/.test(event.message)) return
    report('error', event.error === undefined || event.error === null ? { message: event.message } : describeThrown(event.error))
  }
  const onRejection = (event: PromiseRejectionEvent): void => report('unhandledrejection', describeThrown(event.reason))
  target.addEventListener('error', onError)
  target.addEventListener('unhandledrejection', onRejection)
  return () => {
    target.removeEventListener('error', onError)
    target.removeEventListener('unhandledrejection', onRejection)
  }
}
