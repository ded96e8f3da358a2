import { spawn, type ChildProcess } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

/** The repository root: scripts are named relative to it. */
export const repositoryRoot = path.join(import.meta.dirname, '..', '..')

/**
 * tsx as a loader in this Node (`node --import tsx script`), one process: npm's wrapper dies on
 * SIGTERM without passing it on, and tsx's own launcher relays signals with a 30 ms wait for
 * the child's answer, which a loaded machine misses (it then exits 143). Signals reach the
 * script itself this way, and its exit code is the one we see.
 */
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href

export interface SpawnOptions {
  /** Default: the repository root. */
  cwd?: string
  /** Added to this process's environment. */
  env?: Record<string, string>
  /** Written to the child's standard input, which is then closed; without it, stdin is ignored. */
  stdin?: string
  /** How long `line()` and `json()` wait before giving up with what the child printed. Default 30 s. */
  readyTimeoutMs?: number
}

export interface SpawnedChild {
  readonly child: ChildProcess
  /** Everything printed so far. */
  stdout(): string
  stderr(): string
  /** The exit code (null when ended by a signal), once the child is gone and its output is read. */
  readonly exit: Promise<number | null>
  /** The first complete stdout line matching `pattern`; fails if the child ends first, or kills it if the wait times out. */
  line(pattern: RegExp): Promise<RegExpExecArray>
  /** The first stdout line that is a JSON object, parsed: what a server prints when it is ready. */
  json<T>(): Promise<T>
  /** Sends `signal` (default SIGTERM) unless the child has already ended, and waits for its exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>
}

/** Starts `script` (a .ts file, relative to the repository root) with tsx in its own process. */
export function spawnTsx(script: string, args: readonly string[] = [], options: SpawnOptions = {}): SpawnedChild {
  return spawnChild(process.execPath, ['--import', tsxLoader, script, ...args], options)
}

/** What the build is made from: a built file older than any of these is stale. */
const buildSources = ['main', 'common', 'preload/contract', 'vite.config.ts', 'package.json']

function newestUnder(target: string): number {
  const stats = statSync(target, { throwIfNoEntry: false })
  if (stats === undefined) return -1
  if (!stats.isDirectory()) return stats.mtimeMs
  return readdirSync(target).reduce((newest, name) => Math.max(newest, newestUnder(path.join(target, name))), stats.mtimeMs)
}

const checkedBuilds = new Set<string>()

/**
 * The build output a test is about to start, refused with a sentence when it is missing or older
 * than its sources (it would test yesterday's code). Checked once per file and test run.
 */
export function freshBuild(script: string): string {
  const built = path.join(repositoryRoot, script)
  if (checkedBuilds.has(built)) return built
  const builtAt = statSync(built, { throwIfNoEntry: false })?.mtimeMs
  if (builtAt === undefined) throw new Error(`There is no ${script}: run "npm run build" first (npm test does).`)
  const stale = buildSources.find((source) => newestUnder(path.join(repositoryRoot, source)) > builtAt)
  if (stale !== undefined) throw new Error(`${script} is older than ${stale}/: run "npm run build" again (npm test does).`)
  checkedBuilds.add(built)
  return built
}

/**
 * Starts a built script (`out/…`, from the repository root) in plain Node, as `npm run
 * preview:web` and `npm run cli` do: no TypeScript loader compiling the sources at each start
 * (measured: the demo backend's command line 0.25 CPU s against 0.9, the command line 0.85
 * against 2.2, the web preview 1.0 against 2.5). The gate runs vitest after the build.
 */
export function spawnBuilt(script: string, args: readonly string[] = [], options: SpawnOptions = {}): SpawnedChild {
  return spawnChild(process.execPath, [freshBuild(script), ...args], options)
}

export function spawnChild(command: string, args: readonly string[], options: SpawnOptions = {}): SpawnedChild {
  const child = spawn(command, args, {
    cwd: options.cwd ?? repositoryRoot,
    env: { ...process.env, ...options.env },
    stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  let ended = false
  const waiters = new Set<() => void>()
  const notify = (): void => {
    for (const waiter of [...waiters]) waiter()
  }
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString()
    notify()
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
    notify()
  })
  const exit = new Promise<number | null>((resolve, reject) => {
    child.once('error', (error) => {
      ended = true
      notify()
      reject(error)
    })
    // 'close', not 'exit': by then every byte the child printed has been read.
    child.once('close', (code) => {
      ended = true
      notify()
      resolve(code)
    })
  })
  // A child that fails to start is reported through line()/json() or by awaiting exit; never unhandled.
  exit.catch(() => undefined)
  if (options.stdin !== undefined) child.stdin?.end(options.stdin)

  const transcript = (): string => `${[command, ...args].map((part) => path.basename(part)).join(' ')}\nstdout:\n${stdout}\nstderr:\n${stderr}`

  function line(pattern: RegExp): Promise<RegExpExecArray> {
    return new Promise((resolve, reject) => {
      const settle = (): void => {
        clearTimeout(timer)
        waiters.delete(check)
      }
      const check = (): void => {
        // Only complete lines: a line still arriving may not match yet.
        for (const candidate of stdout.split('\n').slice(0, -1)) {
          const match = pattern.exec(candidate)
          if (match) {
            settle()
            resolve(match)
            return
          }
        }
        if (ended) {
          settle()
          reject(new Error(`the child ended before printing a line matching ${String(pattern)}: ${transcript()}`))
        }
      }
      const timer = setTimeout(() => {
        settle()
        // A child that never became ready is not left behind.
        child.kill('SIGKILL')
        reject(new Error(`no line matching ${String(pattern)} after ${options.readyTimeoutMs ?? 30_000} ms: ${transcript()}`))
      }, options.readyTimeoutMs ?? 30_000)
      waiters.add(check)
      check()
    })
  }

  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exit,
    line,
    async json<T>() {
      const [text] = await line(/^\s*\{.*$/)
      return JSON.parse(text) as T
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      return exit
    },
  }
}
