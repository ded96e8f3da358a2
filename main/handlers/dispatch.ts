import { channels, type ChannelName, type Outcome } from '@contract'
import { AppError, toErrorShape } from '../services/errors'
import type { Handlers } from './types'

const MAX_ISSUES_REPORTED = 10

function isChannelName(name: string): name is ChannelName {
  return Object.prototype.hasOwnProperty.call(channels, name)
}

/**
 * The one path every bridge call takes, from Electron's IPC and from the web test host alike:
 * known channel → input validated against the contract → handler → result checked against the
 * contract. The result check strips any field the contract does not name, so a service that
 * grew a secret-bearing field by mistake still cannot send it to the page. The error path is
 * checked too: `toErrorShape` keeps only the detail keys the page uses, type-checked and
 * bounded, and a one-line message of bounded length (main/services/error-shape.ts).
 */
export async function dispatch(handlers: Handlers, channel: string, rawInput: unknown): Promise<Outcome<unknown>> {
  try {
    if (!isChannelName(channel)) throw new AppError('bad_input', `Unknown request "${channel.slice(0, 100)}".`)
    const spec = channels[channel]
    const parsed = spec.input.safeParse(rawInput)
    if (!parsed.success) {
      const issues = parsed.error.issues.slice(0, MAX_ISSUES_REPORTED).map((issue) => ({
        path: issue.path.map(String).join('.'),
        message: issue.message,
      }))
      throw new AppError(
        'bad_input',
        `The request "${channel}" was malformed: ${issues.map((issue) => `${issue.path || 'input'}: ${issue.message}`).join('; ')}`,
        { issues },
      )
    }
    const handler = handlers[channel] as (input: unknown) => Promise<unknown>
    const value = await handler(parsed.data)
    const checked = spec.output.safeParse(value)
    if (!checked.success) {
      throw new AppError('internal', 'AdOps Desk produced an answer it could not check. Try again; if it keeps happening, restart the app.', {
        channel,
        issue: checked.error.issues[0]?.message ?? 'invalid',
      })
    }
    return { ok: true, value: checked.data }
  } catch (error) {
    return { ok: false, error: toErrorShape(error) }
  }
}
