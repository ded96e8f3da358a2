import type { SandboxInfo } from '../../../../main/sandbox'
import { spawnBuilt, spawnTsx } from '../../../support/child-process'

/**
 * The sandbox in its own process, so serving 100,000 entities neither shares the event loop with
 * the client being measured nor shows up in its heap. Tests start its build (out/web/sandbox.js,
 * no TypeScript loader at each start); the workflow-client bench starts it from the sources, as
 * its baselines were measured.
 */
export async function spawnSandbox(
  args: readonly string[] = [],
  options: { from: 'build' | 'sources' } = { from: 'build' },
): Promise<{ info: SandboxInfo; stop(): Promise<void> }> {
  const child =
    options.from === 'build' ? spawnBuilt('out/web/sandbox.js', ['--port', '0', ...args]) : spawnTsx('main/sandbox/cli.ts', ['--port', '0', ...args])
  const info = await child.json<SandboxInfo>()
  return {
    info,
    async stop() {
      await child.stop()
    },
  }
}
