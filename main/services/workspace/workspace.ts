import { DEMO_PROFILE_ID, type Profile } from '@contract'
import { createConnection, type Connection, type ConnectionTest } from '../connection/connection'
import type { Credentials } from '../connection/settings'
import { startDemoWorkspace, type DemoWorkspace, type StartSandbox } from '../connection/demo'
import { AppError } from '../errors'
import type { HttpClient } from '../http/client'
import type { ProfileStore } from '../profiles/profile-store'
import type { StoredProfile } from '../profiles/types'
import type { ReportTarget } from '../reporting/schemas'
import type { SettingsStore } from './settings-store'

export { DEMO_PROFILE_ID }

export interface Workspace {
  state(): Promise<{ activeProfileId: string | null; demoRunning: boolean }>
  /** Makes a profile the active one and remembers it; `demo` starts the embedded demo backend. */
  activate(profileId: string): Promise<Profile>
  /** The (cached) connection for a profile: its tokens live in memory for as long as the app runs. */
  connection(profileId: string): Promise<Connection>
  test(profileId: string, signal: AbortSignal): Promise<ConnectionTest>
  /** The demo as a profile while it runs, for the connections list. */
  demoProfile(): Profile | null
  /** A profile was edited or deleted: its cached connection (and tokens) must not be reused. */
  forget(profileId: string): void
  close(): Promise<void>
}

export interface WorkspaceOptions {
  profiles: ProfileStore
  settings: SettingsStore
  http: HttpClient
  startSandbox: StartSandbox
  /** Told each time a sign-in reads its credentials (the log keeps the secret out from then on). */
  onCredentials?: (credentials: Credentials) => void
}

export function createWorkspace({ profiles, settings, http, startSandbox, onCredentials }: WorkspaceOptions): Workspace {
  const seen = (credentials: Credentials): Credentials => {
    onCredentials?.(credentials)
    return credentials
  }
  const connections = new Map<string, Connection>()
  let demo: Promise<DemoWorkspace> | null = null
  let demoStartedAt: string | null = null
  let demoRunning: DemoWorkspace | null = null

  function startDemo(): Promise<DemoWorkspace> {
    demo ??= startDemoWorkspace({ startSandbox }).then(
      (started) => {
        demoRunning = started
        demoStartedAt = new Date().toISOString()
        return started
      },
      (error: unknown) => {
        demo = null
        throw new AppError('internal', 'The demo workspace could not start. Try again; if it keeps failing, restart the app.', { error: String(error) })
      },
    )
    return demo
  }

  function presentDemo(running: DemoWorkspace): Profile {
    const stamp = demoStartedAt ?? new Date().toISOString()
    return {
      id: DEMO_PROFILE_ID,
      name: 'Demo workspace',
      ...running.settings,
      authMethod: 'password',
      username: running.credentials.method === 'password' ? running.credentials.username : null,
      defaultProject: running.reportTarget.project_name,
      defaultSlicer: running.reportTarget.slicer_name,
      hasSecret: true,
      // Built in: the demo's credentials are known, never typed or stored.
      secretStorage: 'session',
      isDemo: true,
      createdAt: stamp,
      updatedAt: stamp,
    }
  }

  /** The saved profile with exactly this id (`find` also matches display names, which is for the command line). */
  async function storedProfile(profileId: string): Promise<StoredProfile> {
    const stored = await profiles.find(profileId)
    if (stored === null || stored.id !== profileId) throw new AppError('not_found', 'That connection no longer exists; choose another one.', { profileId })
    return stored
  }

  async function reportTargetOf(profileId: string): Promise<ReportTarget | null> {
    if (profileId === DEMO_PROFILE_ID) return (await startDemo()).reportTarget
    const stored = await storedProfile(profileId)
    if (!stored.defaultProject || !stored.defaultSlicer) return null
    return { project_name: stored.defaultProject, slicer_name: stored.defaultSlicer }
  }

  async function connection(profileId: string): Promise<Connection> {
    const cached = connections.get(profileId)
    if (cached) return cached
    let made: Connection
    if (profileId === DEMO_PROFILE_ID) {
      const running = await startDemo()
      made = createConnection({ settings: running.settings, credentials: async () => seen(running.credentials), http })
    } else {
      const stored = await storedProfile(profileId)
      made = createConnection({ settings: stored, credentials: async () => seen(await profiles.credentials(profileId)), http })
    }
    connections.set(profileId, made)
    return made
  }

  return {
    async state() {
      const { activeProfileId } = await settings.read()
      return { activeProfileId, demoRunning: demoRunning !== null }
    },

    async activate(profileId) {
      const profile = profileId === DEMO_PROFILE_ID ? presentDemo(await startDemo()) : await profiles.get(profileId)
      await settings.update({ activeProfileId: profileId })
      return profile
    },

    connection,

    async test(profileId, signal) {
      const [made, report] = await Promise.all([connection(profileId), reportTargetOf(profileId)])
      return made.testConnection({ signal, ...(report === null ? {} : { report }) })
    },

    demoProfile: () => (demoRunning === null ? null : presentDemo(demoRunning)),

    forget(profileId) {
      connections.delete(profileId)
    },

    async close() {
      connections.clear()
      const running = demoRunning
      demoRunning = null
      demo = null
      await running?.stop()
    },
  }
}
