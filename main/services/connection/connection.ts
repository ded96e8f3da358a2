import { performance } from 'node:perf_hooks'
import type { ApiCheck, ConnectionTest } from '@contract'
import { toErrorShape } from '../errors'
import type { ConnectionSettings, Credentials } from './settings'
import type { HttpClient } from '../http/client'
import { createConnectionTokens, type ConnectionTokens } from '../auth/connection-tokens'
import type { TokenProvider } from '../auth/token-provider'
import { createWorkflowClient, type WorkflowClient } from '../workflow/client'
import { createReportingClient, type ReportingClient } from '../reporting/client'
import type { ReportTarget } from '../reporting/schemas'

/** One API's part of a connection test, as the bridge carries it (`apiCheckSchema`): `ok: null` means not tested, and `skipped` says why. */
export type { ApiCheck, ConnectionTest }

export interface TestConnectionOptions {
  signal?: AbortSignal
  /** A report to ask `info` about; the reporting API has no cheap call without one, so without it that half is skipped. */
  report?: ReportTarget
}

export interface Connection {
  readonly settings: ConnectionSettings
  readonly workflow: WorkflowClient
  readonly reporting: ReportingClient
  readonly tokens: ConnectionTokens
  /** Signs in afresh and makes one cheap call to each API. Never throws: each half reports its own outcome. */
  testConnection(options?: TestConnectionOptions): Promise<ConnectionTest>
}

export interface ConnectionOptions {
  settings: ConnectionSettings
  /** Read from the keychain (or the CLI's environment) each time a sign-in needs it. */
  credentials: () => Promise<Credentials>
  http: HttpClient
  /** Wall clock for token expiry. */
  now?: () => number
  /** Monotonic clock for latencies. */
  monotonic?: () => number
  renewMarginMs?: number
}

export function createConnection(options: ConnectionOptions): Connection {
  const { settings, http } = options
  const now = options.now ?? Date.now
  const monotonic = options.monotonic ?? (() => performance.now())
  const tokens = createConnectionTokens({
    http,
    settings,
    credentials: options.credentials,
    now,
    ...(options.renewMarginMs === undefined ? {} : { renewMarginMs: options.renewMarginMs }),
  })
  const workflow = createWorkflowClient({ http, tokens: tokens.workflow, settings })
  const reporting = createReportingClient({ http, tokens: tokens.reporting, settings })

  async function check(provider: TokenProvider, signal: AbortSignal | undefined, call: () => Promise<unknown>): Promise<ApiCheck> {
    try {
      await provider.get({ signal })
      const started = monotonic()
      await call()
      const latencyMs = Math.max(0, Math.round(monotonic() - started))
      const expiresAt = provider.current()?.expiresAt ?? null
      return { ok: true, latencyMs, tokenExpiresAt: expiresAt === null ? null : new Date(expiresAt).toISOString() }
    } catch (error) {
      return { ok: false, error: toErrorShape(error) }
    }
  }

  return {
    settings,
    workflow,
    reporting,
    tokens,

    async testConnection({ signal, report } = {}) {
      // A test proves the credentials: sign in afresh instead of trusting a token held from earlier.
      tokens.workflow.forget()
      tokens.reporting.forget()
      const workflowCheck = check(tokens.workflow, signal, async () => {
        // The first page of publishers, exactly as the spec documents the call: no paging parameter,
        // since the platform answers 400 to any it does not support and its paging is not specified.
        const pages = workflow.list('publishers', { signal })
        try {
          await pages.next()
        } finally {
          await pages.return(undefined)
        }
      })
      const reportingCheck: Promise<ApiCheck> =
        report === undefined
          ? Promise.resolve({ ok: null, skipped: 'Not tested: choose a project and a report to test the reporting API.' })
          : check(tokens.reporting, signal, () => reporting.info(report, { signal }))
      const [workflowResult, reportingResult] = await Promise.all([workflowCheck, reportingCheck])
      return { workflow: workflowResult, reporting: reportingResult }
    },
  }
}
