import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createServices, type Services, type ServicesOptions } from '../../main/services'
import type { FileDialogs } from '../../main/services/files/dialogs'
import { DisposableStore } from '../../main/services/lifecycle/disposables'
import type { Keychain } from '../../main/services/secrets/keychain'
import { createMemoryKeychain } from './memory-keychain'
import { startSandbox } from '../../main/sandbox'

export async function temporaryFolder(prefix = 'adops-test-'): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), prefix))
}

/** What createTestServices gives: the services, their data folder, and close() for their lifetime. */
export type TestServices = Services & { userDataDir: string; close(): Promise<void> }

/**
 * The services alone, as the runtime builds them, over a memory keychain and the real demo
 * backend; `close()` disposes the lifetime they were built in, as the runtime's close does.
 */
export async function createTestServices(
  options: { keychain?: Keychain; userDataDir?: string; serviceName?: string; fileDialogs?: FileDialogs; extra?: Partial<ServicesOptions> } = {},
): Promise<TestServices> {
  const userDataDir = options.userDataDir ?? (await temporaryFolder())
  const keychain = options.keychain ?? createMemoryKeychain()
  const lifetime = new DisposableStore()
  const services = createServices(
    {
      userDataDir,
      keychainServiceName: options.serviceName ?? 'AdOps Desk test',
      environment: { version: '0.0.0-test', platform: 'test' },
      // Without dialogs, files go where the web host puts them: a new name in <userData>/exports/.
      host: { openKeychain: async () => keychain, ...(options.fileDialogs ? { dialogs: options.fileDialogs } : {}) },
      startSandbox: ({ port }) => startSandbox({ port }),
      // Tests wait for retries in milliseconds, not seconds.
      http: { retry: { baseDelayMs: 5, maxDelayMs: 50 } },
      ...options.extra,
    },
    lifetime,
  )
  await services.start()
  return Object.assign(services, { userDataDir, close: () => lifetime.dispose() })
}

export const passwordProfile = {
  name: 'Production EU',
  baseUrl: 'https://workflow.example.com/api/v1/',
  authUrl: 'https://auth.example.com',
  reportUrl: 'https://reports.example.com//',
  serviceId: '1234',
  auth: { method: 'password' as const, username: 'ops@example.com', password: 's3cret-PASSWORD-value' },
}

export const tokenProfile = {
  name: 'Staging token',
  baseUrl: 'http://127.0.0.1:9/workflow/v1',
  authUrl: 'http://127.0.0.1:9/auth',
  reportUrl: 'http://127.0.0.1:9/report',
  serviceId: 'demo',
  reportServiceId: 'reports',
  auth: { method: 'token' as const, token: 'permanent-TOKEN-value-123' },
}
