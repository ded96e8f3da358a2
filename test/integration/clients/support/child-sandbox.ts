import type { SandboxInfo } from '../../../../main/sandbox'
import { spawnTsx } from '../../../support/child-process'

/**
 * The sandbox in its own process (`tsx main/sandbox/cli.ts`), so serving 100,000 entities
 * neither shares the event loop with the client being measured nor shows up in its heap.
 */
export async function spawnSandbox(args: readonly string[] = []): Promise<{ info: SandboxInfo; stop(): Promise<void> }> {
  const child = spawnTsx('main/sandbox/cli.ts', ['--port', '0', ...args])
  const info = await child.json<SandboxInfo>()
  return {
    info,
    async stop() {
      await child.stop()
    },
  }
}
