import type { SandboxInfo } from '../../../../main/sandbox'
import { spawnBuilt } from '../../../support/child-process'

/**
 * The sandbox in its own process (its built command line, out/web/sandbox.js), so serving 100,000 entities
 * neither shares the event loop with the client being measured nor shows up in its heap.
 */
export async function spawnSandbox(args: readonly string[] = []): Promise<{ info: SandboxInfo; stop(): Promise<void> }> {
  const child = spawnBuilt('out/web/sandbox.js', ['--port', '0', ...args])
  const info = await child.json<SandboxInfo>()
  return {
    info,
    async stop() {
      await child.stop()
    },
  }
}
