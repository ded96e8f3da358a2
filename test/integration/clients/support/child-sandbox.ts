import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import type { SandboxInfo } from '../../../../main/sandbox'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..')

/**
 * The sandbox in its own process (`tsx main/sandbox/cli.ts`), so serving 100,000 entities
 * neither shares the event loop with the client being measured nor shows up in its heap.
 */
export async function spawnSandbox(args: readonly string[] = []): Promise<{ info: SandboxInfo; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'main/sandbox/cli.ts'), '--port', '0', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stdout = child.stdout
  if (stdout === null) throw new Error('the sandbox has no stdout')
  const lines = createInterface({ input: stdout })
  const info = await new Promise<SandboxInfo>((resolve, reject) => {
    lines.once('line', (line) => {
      try {
        resolve(JSON.parse(line) as SandboxInfo)
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)))
      }
    })
    child.once('exit', (code) => reject(new Error(`the sandbox exited (${String(code)}) before it was ready`)))
  })
  lines.close()
  return {
    info,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await exited
    },
  }
}
