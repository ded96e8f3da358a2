#!/usr/bin/env node
// `npm run test:all`, the gate: every check of the README's test command, run side by side as far
// as the machine's cores allow instead of one after another. The checks are single-threaded
// compilers and linters, the build, vitest and Playwright; on the 2-core CI machine running
// them in a row left a core idle for most of the static checks. Each check's output is kept
// and printed whole when it ends (interleaved output from four tools would be unreadable), then
// a table of what took how long. The first failure stops the others: the gate is red already,
// and a red gate should say so quickly.
//   node build/gate.mjs            every check
//   node build/gate.mjs lint unit  only these (and what they need)
// ADOPS_GATE_SLOTS sets how many cores' worth of checks run at once (default: the core count).
import { spawn } from 'node:child_process'
import { createWriteStream, mkdirSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
/** Each check's output as it comes, to follow a long one: `tail -f test/artifacts/gate/e2e.log`. */
const logsFolder = path.join(root, 'test', 'artifacts', 'gate')
const bin = (name) => path.join(root, 'node_modules', '.bin', name)
const node = process.execPath
/** TypeScript 7, installed beside 6 under the name `typescript-7` (both ship a `tsc` bin, so it is called by path). */
const typescript7 = path.join(root, 'node_modules', 'typescript-7', 'bin', 'tsc')

/**
 * Each check: its command, what must finish first, how many cores it keeps busy (its weight),
 * and whether it runs in the background (at a lower priority).
 *
 * The end-to-end tests are the longest check by far, and the one whose waits a busy machine can
 * push past their timeouts, so they start as soon as the build is done and run in the
 * foreground, in two Playwright workers (test/playwright.config.ts). They count as one core:
 * their tests wait on the page, the host and the demo backend for much of their time, and the
 * background checks beside them take that idle time and yield the rest (niceness 19: under a
 * fiftieth of a contended core). Weighed as two, they would leave vitest to run after them.
 * vitest runs its files in `cores - 1` worker processes (its own default, said explicitly so the
 * weight is true). The longest chains are listed first (the build, then what waits for it), so
 * they start first when free.
 */
/**
 * The exit code of a check that ran nothing and passed nothing (the Electron smoke where
 * Electron's binary is not installed: test/electron/run.mjs). 77 is the skip of automake's test
 * harness. A check that declares it as its `skipCode` is listed as skipped, never as passed, and
 * does not stop the gate; from any other check the code is a failure like any other.
 */
export const SKIPPED_EXIT_CODE = 77

export function checksFor(cores) {
  const vitestWorkers = Math.max(1, cores - 1)
  return [
    { name: 'native', command: [node, 'build/native-deps.mjs', 'node'], needs: [], weight: 1 },
    { name: 'build', command: ['npm', 'run', 'build', '--silent'], needs: [], weight: 1 },
    { name: 'e2e', command: [bin('playwright'), 'test', '--config', 'test/playwright.config.ts'], needs: ['native', 'build'], weight: 1 },
    {
      name: 'vitest',
      command: [bin('vitest'), 'run', '--config', 'test/vitest.config.ts', `--maxWorkers=${vitestWorkers}`],
      needs: ['native', 'build'],
      weight: vitestWorkers,
      background: true,
    },
    { name: 'typecheck:renderer', command: [bin('vue-tsc'), '-p', 'renderer/tsconfig.json'], needs: [], weight: 1, background: true },
    // The programs without Vue files are checked by TypeScript 7 (the native compiler, about a
    // third of 6's CPU here); vue-tsc needs TypeScript 6 (`typescript`), so the renderer keeps it.
    { name: 'typecheck:main', command: [node, typescript7, '-p', 'tsconfig.json'], needs: [], weight: 1, background: true },
    { name: 'typecheck:e2e', command: [node, typescript7, '-p', 'test/e2e/tsconfig.json'], needs: [], weight: 1, background: true },
    { name: 'eslint', command: [bin('eslint'), '.'], needs: [], weight: 1, background: true },
    { name: 'prettier', command: [bin('prettier'), '--check', '--log-level', 'warn', '.'], needs: [], weight: 1, background: true },
    {
      name: 'electron',
      command: [node, 'test/electron/run.mjs'],
      needs: ['native', 'build'],
      weight: 1,
      background: true,
      skipCode: SKIPPED_EXIT_CODE,
    },
  ]
}

/** The cores the gate schedules for: ADOPS_GATE_SLOTS, else the machine's (at least 2). */
/** How much lower a background check runs than the foreground: a niceness (Windows: below normal). */
export const BACKGROUND_NICENESS = 19

export const CORES = Number(process.env.ADOPS_GATE_SLOTS) || Math.max(2, os.availableParallelism())
export const CHECKS = checksFor(CORES)

/** The checks asked for and everything they need, in the table's order. */
export function selectChecks(checks, names) {
  if (names.length === 0) return checks
  const byName = new Map(checks.map((check) => [check.name, check]))
  const wanted = new Set()
  const add = (name) => {
    const check = byName.get(name)
    if (check === undefined) throw new Error(`There is no check named "${name}"; the checks are ${checks.map((known) => known.name).join(', ')}.`)
    if (wanted.has(name)) return
    wanted.add(name)
    for (const need of check.needs) add(need)
  }
  for (const name of names) add(name)
  return checks.filter((check) => wanted.has(check.name))
}

/**
 * Runs the checks, at most `slots` cores' worth at once (a check heavier than all the slots
 * still runs, alone). `start(check)` returns { done: Promise<exit code>, stop() }. Resolves with
 * each check's outcome; after a failure nothing new starts and the running ones are stopped.
 */
export async function runChecks(checks, { slots, start, now = () => Date.now(), onEnd = () => {} }) {
  const waiting = [...checks]
  const running = new Map()
  const outcomes = new Map()
  let busy = 0
  let failed = false
  return new Promise((resolve) => {
    const launch = () => {
      if (!failed) {
        for (const check of [...waiting]) {
          const ready = check.needs.every((need) => outcomes.get(need)?.code === 0)
          const fits = busy === 0 || busy + check.weight <= slots
          if (!ready || !fits) continue
          waiting.splice(waiting.indexOf(check), 1)
          busy += check.weight
          const startedAt = now()
          const handle = start(check)
          running.set(check.name, handle)
          handle.done.then((code) => {
            running.delete(check.name)
            busy -= check.weight
            const skipped = check.skipCode !== undefined && code === check.skipCode
            const outcome = { code, seconds: (now() - startedAt) / 1000, stopped: failed && code !== 0 && !skipped, skipped }
            outcomes.set(check.name, outcome)
            onEnd(check, outcome)
            if (code !== 0 && !skipped && !failed) {
              failed = true
              for (const other of running.values()) other.stop()
            }
            launch()
          })
        }
      }
      if (running.size === 0) resolve(outcomes)
    }
    launch()
  })
}

/** A check's state in the gate's output: passed, skipped, stopped, FAILED, or not run. */
export function stateOf(outcome) {
  if (outcome === undefined) return 'not run'
  if (outcome.skipped) return 'skipped'
  if (outcome.stopped) return 'stopped'
  return outcome.code === 0 ? 'passed' : 'FAILED'
}

/** Passed where every check passed or skipped (a skip says so in the summary, and is no failure). */
export function gateExitCode(checks, outcomes) {
  return checks.every((check) => ['passed', 'skipped'].includes(stateOf(outcomes.get(check.name)))) ? 0 : 1
}

/** The summary's table: one line a check, then the total, which counts the skips. */
export function summaryLines(checks, outcomes, totalSeconds) {
  const lines = checks.map((check) => {
    const outcome = outcomes.get(check.name)
    return `  ${check.name.padEnd(20)} ${stateOf(outcome).padEnd(8)} ${outcome ? `${outcome.seconds.toFixed(1).padStart(6)} s` : ''}`
  })
  const skips = checks.filter((check) => outcomes.get(check.name)?.skipped === true).length
  const total = gateExitCode(checks, outcomes) === 0 ? `passed${skips > 0 ? `, ${skips} skipped` : ''}` : 'FAILED'
  lines.push(`  ${'total'.padEnd(20)} ${total.padEnd(8)} ${totalSeconds.toFixed(1).padStart(6)} s`)
  return lines
}

/** Starts a check's command; the handle's `pid` is its process (group leader). */
export function startProcess(check) {
  const [command, ...args] = check.command
  // Its own process group, so stopping it stops Chromium, the web host and vitest's workers too.
  const child = spawn(command, args, { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0' } })
  if (check.background && child.pid !== undefined) {
    try {
      // Set before the check starts its own processes (vitest's workers, tsc), which inherit it.
      os.setPriority(child.pid, BACKGROUND_NICENESS)
    } catch {
      // A platform that refuses: the check still runs, at the usual priority.
    }
  }
  const output = []
  mkdirSync(logsFolder, { recursive: true })
  const log = createWriteStream(path.join(logsFolder, `${check.name.replace(/[^\w-]/g, '-')}.log`))
  const keep = (chunk) => {
    output.push(chunk)
    log.write(chunk)
  }
  child.stdout.on('data', keep)
  child.stderr.on('data', keep)
  child.on('close', () => log.end())
  const done = new Promise((resolve) => {
    child.on('error', (error) => {
      output.push(Buffer.from(`Could not start ${command}: ${error.message}\n`))
      resolve(127)
    })
    child.on('close', (code, signal) => resolve(code ?? (signal ? 128 : 1)))
  })
  check.output = () => Buffer.concat(output).toString('utf8')
  return {
    pid: child.pid,
    done,
    stop() {
      try {
        process.kill(-child.pid, 'SIGTERM')
      } catch {
        // Already gone.
      }
    },
  }
}

async function main() {
  let checks
  try {
    checks = selectChecks(CHECKS, process.argv.slice(2))
  } catch (error) {
    console.error(`gate: ${error.message}`)
    return 2
  }
  const slots = CORES
  const began = Date.now()
  mkdirSync(logsFolder, { recursive: true })
  console.log(`gate: ${checks.length} checks, ${slots} cores' worth at once; each check's output as it comes in test/artifacts/gate/`)
  const outcomes = await runChecks(checks, {
    slots,
    start(check) {
      console.log(`gate: ${check.name} started (${((Date.now() - began) / 1000).toFixed(1)} s)`)
      return startProcess(check)
    },
    onEnd(check, outcome) {
      const state = outcome.skipped || outcome.stopped || outcome.code === 0 ? stateOf(outcome) : `FAILED (exit ${outcome.code})`
      console.log(`\n──── ${check.name}: ${state} in ${outcome.seconds.toFixed(1)} s ────`)
      if (!outcome.stopped) process.stdout.write(check.output())
    },
  })
  console.log('\ngate summary')
  for (const line of summaryLines(checks, outcomes, (Date.now() - began) / 1000)) console.log(line)
  return gateExitCode(checks, outcomes)
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then((code) => process.exit(code))
}
