import type { ApiErrorShape, ChannelName, ChannelResult, Outcome, ReportDefinition } from '@contract'
import { dispatch } from '../../main/handlers/dispatch'
import type { Handlers } from '../../main/handlers/handlers'
import type { Sandbox } from '../../main/sandbox'
import { sampleDefinition } from './channel-samples'
import type { createTestServices } from './services'

/**
 * Calls through the same dispatch the bridge uses (input validated, result validated), for
 * integration tests that drive main's handlers against a sandbox.
 */
export async function call<C extends ChannelName>(handlers: Handlers, channel: C, input: unknown): Promise<ChannelResult<C>> {
  const outcome = (await dispatch(handlers, channel, input)) as Outcome<ChannelResult<C>>
  if (!outcome.ok) throw new Error(`${channel} failed: ${outcome.error.code}: ${outcome.error.message}`)
  return outcome.value
}

/** The error a call must end with; the test fails if it worked. */
export async function failure(handlers: Handlers, channel: ChannelName, input: unknown): Promise<ApiErrorShape> {
  const outcome = await dispatch(handlers, channel, input)
  if (outcome.ok) throw new Error(`${channel} should have failed`)
  return outcome.error
}

/** The demo's supply report, daily over the last two weeks at UTC+3, impressions with top 10 and Total; change what the test is about. */
export function sandboxDefinition(overrides: Partial<ReportDefinition> = {}): ReportDefinition {
  return {
    ...sampleDefinition,
    dates: { start: '-14d', end: 'yesterday' },
    timezone: { mode: 'fixed', offset: 3 },
    metrics: ['impressions'],
    granularity: 'granularity_day',
    breakdown: [],
    lines: { mode: 'top', count: 10, by: null, includeTotal: true },
    filters: [],
    filterLogic: '',
    metricConditions: [],
    metricConditionLogic: '',
    sort: [],
    comparison: 'none',
    ...overrides,
  }
}

type TestServices = Awaited<ReturnType<typeof createTestServices>>

/** A connection to a sandbox made through the store the app uses; the demo project and report as its defaults. */
export async function sandboxProfile(services: TestServices, sandbox: Sandbox, auth?: { username: string; password: string }): Promise<string> {
  const { info } = sandbox
  const profile = await services.profiles.create({
    name: `Sandbox ${sandbox.port}`,
    baseUrl: info.base_url,
    authUrl: info.auth_url,
    reportUrl: info.report_url,
    serviceId: info.service_id,
    defaultProject: 'demo',
    defaultSlicer: 'supply',
    auth: { method: 'password', username: auth?.username ?? info.username, password: auth?.password ?? info.password },
  })
  return profile.id
}
