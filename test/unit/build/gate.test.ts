import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  BACKGROUND_NICENESS,
  CHECKS,
  SKIPPED_EXIT_CODE,
  checksFor,
  gateExitCode,
  runChecks,
  selectChecks,
  startProcess,
  stateOf,
  summaryLines,
  type Check,
  type CheckHandle,
} from '../../../build/gate.mjs'

const root = path.join(import.meta.dirname, '..', '..', '..')

/** Checks that end when the test says so, recording what ran beside what. */
function fakeChecks() {
  const running = new Set<string>()
  const overlaps: string[][] = []
  const stopped: string[] = []
  const finishers = new Map<string, (code: number) => void>()
  const start = (check: Check): CheckHandle => {
    running.add(check.name)
    overlaps.push([...running].sort())
    const done = new Promise<number>((resolve) =>
      finishers.set(check.name, (code) => {
        running.delete(check.name)
        resolve(code)
      }),
    )
    return { done, stop: () => (stopped.push(check.name), finishers.get(check.name)?.(143)) }
  }
  const finish = async (name: string, code = 0): Promise<void> => {
    finishers.get(name)?.(code)
    // Let the scheduler's then() run and start what became ready.
    await new Promise((resolve) => setImmediate(resolve))
  }
  return { start, finish, running, overlaps, stopped }
}

const check = (name: string, needs: string[] = [], weight = 1): Check => ({ name, command: ['true'], needs, weight })

describe('the gate', () => {
  it('runs every check of the README test command', () => {
    expect(CHECKS.map((known) => known.name).sort()).toEqual(
      ['build', 'e2e', 'electron', 'eslint', 'native', 'prettier', 'typecheck:e2e', 'typecheck:main', 'typecheck:renderer', 'vitest'].sort(),
    )
    // Tests run on the built app and the keychain module built for Node.
    for (const name of ['vitest', 'e2e', 'electron']) expect(CHECKS.find((known) => known.name === name)?.needs).toEqual(['native', 'build'])
  })

  it('gives vitest one worker per core but one, and weighs it by them', () => {
    const vitestOn = (cores: number) => checksFor(cores).find((known) => known.name === 'vitest')
    expect(vitestOn(2)).toMatchObject({ weight: 1 })
    expect(vitestOn(2)?.command).toContain('--maxWorkers=1')
    expect(vitestOn(8)).toMatchObject({ weight: 7 })
    expect(vitestOn(8)?.command).toContain('--maxWorkers=7')
    expect(vitestOn(1)).toMatchObject({ weight: 1 })
  })

  it('on 2 cores starts the end-to-end tests once the build is done, with one background check at a time beside them', async () => {
    const fake = fakeChecks()
    const checks = selectChecks(checksFor(2), ['e2e', 'vitest', 'typecheck:main', 'eslint'])
    const outcome = runChecks(checks, { slots: 2, start: fake.start })
    expect([...fake.running].sort()).toEqual(['build', 'native'])
    await fake.finish('native')
    expect([...fake.running].sort()).toEqual(['build', 'typecheck:main'])
    await fake.finish('build')
    // The free core goes to the end-to-end tests, not to another background check.
    expect([...fake.running].sort()).toEqual(['e2e', 'typecheck:main'])
    await fake.finish('typecheck:main')
    // vitest, the longest background check, next: it must not be the only one left at the end.
    expect([...fake.running].sort()).toEqual(['e2e', 'vitest'])
    await fake.finish('e2e')
    expect([...fake.running].sort()).toEqual(['eslint', 'vitest'])
    await fake.finish('vitest')
    await fake.finish('eslint')
    expect([...(await outcome).values()].every((result) => result.code === 0)).toBe(true)
  })

  it('runs everything but the build and the end-to-end tests in the background, at a lower priority', async () => {
    const foreground = CHECKS.filter((known) => known.background !== true).map((known) => known.name)
    expect(foreground.sort()).toEqual(['build', 'e2e', 'native'])
    // A real process started as a background check runs niced (its children inherit it).
    const handle = startProcess({
      name: 'gate-test-background',
      command: [process.execPath, '-e', 'setTimeout(() => {}, 5000)'],
      needs: [],
      weight: 1,
      background: true,
    })
    try {
      expect(handle.pid).toBeTypeOf('number')
      expect(os.getPriority(handle.pid)).toBe(BACKGROUND_NICENESS)
    } finally {
      handle.stop()
      await handle.done
    }
  })

  it('selects a check with what it needs, and names the checks when asked for an unknown one', () => {
    expect(selectChecks(CHECKS, ['vitest']).map((known) => known.name)).toEqual(['native', 'build', 'vitest'])
    expect(() => selectChecks(CHECKS, ['unit'])).toThrow(/no check named "unit"; the checks are native, build/)
  })

  it('keeps within the slots, waits for what a check needs, and starts the rest as slots free', async () => {
    const fake = fakeChecks()
    const outcome = runChecks([check('build'), check('heavy', ['build'], 2), check('lint'), check('types')], { slots: 2, start: fake.start })
    expect([...fake.running].sort()).toEqual(['build', 'lint'])
    await fake.finish('build')
    // The heavy check needs both slots: it waits for lint, while types takes the free one.
    expect([...fake.running].sort()).toEqual(['lint', 'types'])
    await fake.finish('lint')
    await fake.finish('types')
    expect([...fake.running]).toEqual(['heavy'])
    await fake.finish('heavy')
    const outcomes = await outcome
    expect([...outcomes.values()].every((result) => result.code === 0)).toBe(true)
    expect(Math.max(...fake.overlaps.map((names) => names.length))).toBeLessThanOrEqual(2)
  })

  it('stops the running checks and starts nothing new after a failure', async () => {
    const fake = fakeChecks()
    const outcome = runChecks([check('a'), check('b'), check('c'), check('after-a', ['a'])], { slots: 2, start: fake.start })
    await fake.finish('a', 1)
    const outcomes = await outcome
    expect(fake.stopped).toEqual(['b'])
    expect(outcomes.get('a')).toMatchObject({ code: 1, stopped: false })
    expect(outcomes.get('b')).toMatchObject({ code: 143, stopped: true })
    expect(outcomes.has('c')).toBe(false)
    expect(outcomes.has('after-a')).toBe(false)
  })

  it('runs a check heavier than all the slots alone rather than never', async () => {
    const fake = fakeChecks()
    const outcome = runChecks([check('huge', [], 4)], { slots: 2, start: fake.start })
    expect([...fake.running]).toEqual(['huge'])
    await fake.finish('huge')
    expect((await outcome).get('huge')?.code).toBe(0)
  })
})

describe('a check that skipped', () => {
  it('is its own state, never a pass: the run goes on, the summary says "skipped"', async () => {
    const fake = fakeChecks()
    const electron = CHECKS.find((known) => known.name === 'electron')
    expect(electron?.skipCode).toBe(SKIPPED_EXIT_CODE)
    const smoke: Check = { ...check('electron'), skipCode: SKIPPED_EXIT_CODE }
    const outcome = runChecks([smoke, check('lint')], { slots: 2, start: fake.start })
    await fake.finish('electron', SKIPPED_EXIT_CODE)
    // A skip is no failure: the other check is not stopped.
    expect(fake.stopped).toEqual([])
    await fake.finish('lint')
    const outcomes = await outcome
    expect(outcomes.get('electron')).toMatchObject({ code: SKIPPED_EXIT_CODE, skipped: true, stopped: false })
    expect(stateOf(outcomes.get('electron'))).toBe('skipped')
    expect(stateOf(outcomes.get('lint'))).toBe('passed')
    const lines = summaryLines([smoke, check('lint')], outcomes, 12)
    expect(lines.find((line) => line.trim().startsWith('electron'))).toMatch(/^ {2}electron +skipped /)
    expect(lines.at(-1)).toMatch(/^ {2}total +passed, 1 skipped /)
    expect(gateExitCode([smoke, check('lint')], outcomes)).toBe(0)
  })

  it('a skip code from a check that does not declare one is a failure', async () => {
    const fake = fakeChecks()
    const outcome = runChecks([check('lint')], { slots: 2, start: fake.start })
    await fake.finish('lint', SKIPPED_EXIT_CODE)
    const outcomes = await outcome
    expect(stateOf(outcomes.get('lint'))).toBe(`FAILED`)
    expect(gateExitCode([check('lint')], outcomes)).toBe(1)
  })

  it('the Electron smoke runner exits with the skip code where the binary is missing, and says SKIPPED', () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), 'adops-no-electron-'))
    try {
      const environment: NodeJS.ProcessEnv = { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: empty }
      delete environment.ADOPS_REQUIRE_ELECTRON
      const run = spawnSync(process.execPath, ['test/electron/run.mjs'], { cwd: root, env: environment, encoding: 'utf8' })
      expect(run.stdout).toContain('Electron smoke: SKIPPED (not run, not passed)')
      expect(run.status).toBe(SKIPPED_EXIT_CODE)
    } finally {
      rmSync(empty, { recursive: true, force: true })
    }
  })
})
