// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest'
import { RENDERER_ERROR_LIMITS } from '@contract'
import { installErrorReporting, type RendererErrorReport } from '../../../../renderer/src/shell/error-reporting'

let detach: (() => void) | undefined
afterEach(() => detach?.())

function install(send: (report: RendererErrorReport) => Promise<unknown>) {
  detach = installErrorReporting(window, send)
}

const errorEvent = (error: unknown, message = 'Uncaught'): ErrorEvent => new ErrorEvent('error', { error, message })
// happy-dom has no PromiseRejectionEvent: a plain event with the same fields, as the browser sends it.
const rejection = (reason: unknown): Event => Object.assign(new Event('unhandledrejection'), { reason, promise: Promise.resolve() })

describe('errors nothing in the page caught', () => {
  it('are reported to main with their kind, message and stack', () => {
    const sent: RendererErrorReport[] = []
    install(async (report) => sent.push(report))
    const thrown = new TypeError('rows is undefined')
    window.dispatchEvent(errorEvent(thrown))
    window.dispatchEvent(rejection(new Error('the export stream broke')))
    window.dispatchEvent(rejection('a plain string'))
    window.dispatchEvent(errorEvent(null, 'Script error.'))
    expect(sent).toEqual([
      { kind: 'error', message: 'rows is undefined', stack: thrown.stack },
      { kind: 'unhandledrejection', message: 'the export stream broke', stack: expect.stringContaining('the export stream broke') },
      { kind: 'unhandledrejection', message: 'a plain string' },
      { kind: 'error', message: 'Script error.' },
    ])
  })

  it("leave out the browser's ResizeObserver loop note, which is no failure", () => {
    const sent: RendererErrorReport[] = []
    install(async (report) => sent.push(report))
    window.dispatchEvent(errorEvent(null, 'ResizeObserver loop completed with undelivered notifications.'))
    window.dispatchEvent(errorEvent(null, 'ResizeObserver loop limit exceeded'))
    window.dispatchEvent(errorEvent(new Error('ResizeObserver loop in our own code')))
    expect(sent.map((report) => report.message)).toEqual(['ResizeObserver loop in our own code'])
  })

  it('are sent once per distinct message, however often they happen', () => {
    const sent: RendererErrorReport[] = []
    install(async (report) => sent.push(report))
    for (let time = 0; time < 5; time += 1) window.dispatchEvent(errorEvent(new Error('render failed')))
    window.dispatchEvent(rejection(new Error('render failed')))
    window.dispatchEvent(errorEvent(new Error('another failure')))
    expect(sent.map((report) => report.message)).toEqual(['render failed', 'another failure'])
  })

  it('are cut to what the channel accepts', () => {
    const sent: RendererErrorReport[] = []
    install(async (report) => sent.push(report))
    const error = new Error('m'.repeat(RENDERER_ERROR_LIMITS.message + 500))
    error.stack = 's'.repeat(RENDERER_ERROR_LIMITS.stack * 2)
    window.dispatchEvent(errorEvent(error))
    expect(sent[0]?.message.length).toBe(RENDERER_ERROR_LIMITS.message)
    expect(sent[0]?.stack?.length).toBe(RENDERER_ERROR_LIMITS.stack)
  })

  it('never report a failed report: a rejected or throwing send is dropped, not sent again', async () => {
    let calls = 0
    install(() => {
      calls += 1
      return Promise.reject(new Error('the bridge is gone'))
    })
    window.dispatchEvent(errorEvent(new Error('first')))
    // Let the rejected send settle: were it unhandled, the page would see an unhandledrejection.
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(calls).toBe(1)
    detach?.()
    install(() => {
      calls += 1
      throw new Error('no bridge at all')
    })
    expect(() => window.dispatchEvent(errorEvent(new Error('second')))).not.toThrow()
    expect(calls).toBe(2)
  })

  it('stop being reported once detached', () => {
    const sent: RendererErrorReport[] = []
    install(async (report) => sent.push(report))
    detach?.()
    detach = undefined
    window.dispatchEvent(errorEvent(new Error('after detach')))
    expect(sent).toEqual([])
  })
})
