import type { ChannelName, ChannelParsedInput, ChannelResult, ConnectionTest } from '@contract'
import { toErrorShape } from '../services/errors'
import type { Logger } from '../services/logs/logger'
import type { Handlers } from './types'

/**
 * One log line per call worth a support person's time, written by one wrapper instead of
 * every service: connection tests, syncs, report runs and exports say how they ended (info),
 * any failed call says why (warn; error for the app's own faults), everything else is a debug
 * line. Only ids and counts are written, never a call's input as such: a profile's form carries
 * its password.
 */
type Summary<C extends ChannelName> = (input: ChannelParsedInput<C>, result: ChannelResult<C>) => { message: string; failed?: boolean }

const summaries: { [C in ChannelName]?: Summary<C> } = {
  'profiles:test': (input, result) => ({
    message: `connection test ${input.id}: ${describeTest(result)}`,
    failed: result.workflow.ok === false || result.reporting.ok === false,
  }),
  'workspace:activate': (input) => ({ message: `connection ${input.profileId} activated` }),
  'entities:sync': (input, result) => ({ message: `sync ${input.profileId} ${input.kind}: ${result.count} rows` }),
  'entities:exportCsv': (input) => ({ message: `export ${input.profileId} ${input.kind}: ${input.ids.length} rows to csv` }),
  'reports:run': (input) => ({ message: `report run ${input.profileId} ${input.definition.project}/${input.definition.report}: ok` }),
  'reports:audience': (input) => ({ message: `audience ${input.profileId} ${input.definition.project}/${input.definition.report}: ok` }),
}

function describeTest(test: ConnectionTest): string {
  const part = (name: string, check: ConnectionTest['workflow']): string => {
    if (check.ok === true) return `${name} ok (${check.latencyMs} ms)`
    if (check.ok === false) return `${name} failed (${check.error.code}: ${check.error.message})`
    return `${name} skipped (${check.skipped})`
  }
  return `${part('workflow', test.workflow)}, ${part('reporting', test.reporting)}`
}

/** The ids a line may name, picked from the input; nothing else of it is written. */
function idsOf(input: unknown): Record<string, unknown> {
  if (input === null || typeof input !== 'object') return {}
  const picked: Record<string, unknown> = {}
  for (const key of ['profileId', 'id', 'kind', 'requestId'] as const) {
    const value = (input as Record<string, unknown>)[key]
    if (typeof value === 'string' || typeof value === 'number') picked[key] = value
  }
  return picked
}

export function withOutcomeLog(handlers: Handlers, log: Logger, monotonic: () => number = () => performance.now()): Handlers {
  const wrapped: Record<string, (input: unknown) => Promise<unknown>> = {}
  for (const [name, handler] of Object.entries(handlers) as Array<[ChannelName, (input: unknown) => Promise<unknown>]>) {
    const summary = summaries[name] as Summary<ChannelName> | undefined
    wrapped[name] = async (input) => {
      const started = monotonic()
      const took = () => ({ ms: Math.round(monotonic() - started) })
      try {
        const result = await handler(input)
        // Export jobs (their own domain) end in a file the user will look for: always worth a line.
        if (summary === undefined) (name.startsWith('exports:') ? log.info : log.debug)(`${name} ok`, { ...idsOf(input), ...took() })
        else {
          const { message, failed } = summary(input as never, result as never)
          ;(failed ? log.warn : log.info)(message, took())
        }
        return result
      } catch (error) {
        const shape = toErrorShape(error)
        const fields = { ...idsOf(input), ...took(), code: shape.code, details: shape.details }
        if (shape.code === 'cancelled') log.info(`${name} cancelled`, fields)
        else if (shape.code === 'internal')
          log.error(`${name} failed: ${shape.message}`, { ...fields, stack: error instanceof Error ? error.stack : undefined })
        else log.warn(`${name} failed: ${shape.message}`, fields)
        throw error
      }
    }
  }
  return wrapped as Handlers
}
