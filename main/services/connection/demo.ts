import type { ConnectionSettings, Credentials } from './settings'
import type { ReportTarget } from '../reporting/schemas'

/** What the embedded sandbox tells about itself (see main/sandbox); only the fields the demo uses. */
export interface DemoSandboxInfo {
  base_url: string
  auth_url: string
  report_url: string
  service_id: string
  username: string
  password: string
}

export interface RunningSandbox {
  info: DemoSandboxInfo
  close(): Promise<void>
}

/** The sandbox's start function, passed in so services never import the sandbox (or a server) themselves. */
export type StartSandbox = (options: { port: number }) => Promise<RunningSandbox> | RunningSandbox

export interface DemoWorkspace {
  settings: ConnectionSettings
  credentials: Credentials
  /** The demo's report, so "Test connection" can check the reporting API too. */
  reportTarget: ReportTarget
  stop(): Promise<void>
}

export const DEMO_REPORT_TARGET: ReportTarget = { project_name: 'demo', slicer_name: 'supply' }

/**
 * Starts the embedded demo backend on a free port (the sandbox listens on 127.0.0.1 only, so
 * nothing outside this machine can reach it) and describes it as a connection signed in
 * with the demo credentials.
 */
export async function startDemoWorkspace({ startSandbox }: { startSandbox: StartSandbox }): Promise<DemoWorkspace> {
  const sandbox = await startSandbox({ port: 0 })
  const { info } = sandbox
  let stopped: Promise<void> | null = null
  return {
    settings: {
      baseUrl: info.base_url,
      authUrl: info.auth_url,
      reportUrl: info.report_url,
      serviceId: info.service_id,
      reportServiceId: null,
    },
    credentials: { method: 'password', username: info.username, password: info.password },
    reportTarget: DEMO_REPORT_TARGET,
    stop() {
      stopped ??= sandbox.close()
      return stopped
    },
  }
}
