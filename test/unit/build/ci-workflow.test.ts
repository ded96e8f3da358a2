import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { repositoryRoot } from '../../support/child-process'

/**
 * The hosted-runner workflow (.github/workflows/ci.yml) read as data: it must stay in step with
 * .ci/run's install and with the README's promises (three systems, Node 20, npm test, the
 * Electron smoke required on a desktop, the packages kept). Its syntax is checked with
 * actionlint by hand (README, "CI on Linux, macOS and Windows"); this catches drift.
 */

// js-yaml comes with electron-builder (app-builder-lib reads its YAML config with it); no types ship.
const yaml = createRequire(path.join(repositoryRoot, 'package.json'))('js-yaml') as { load(text: string): unknown }

interface Step {
  name?: string
  uses?: string
  run?: string
  if?: string
  env?: Record<string, string>
  with?: Record<string, unknown>
}
interface Workflow {
  jobs: Record<string, { 'runs-on': string; strategy: { matrix: { os: string[] } }; defaults: { run: { shell: string } }; steps: Step[] }>
}

const workflow = yaml.load(readFileSync(path.join(repositoryRoot, '.github', 'workflows', 'ci.yml'), 'utf8')) as Workflow
const job = workflow.jobs.test
if (job === undefined) throw new Error('ci.yml has no "test" job')
const steps = job.steps
const runOf = (name: string): string => steps.find((step) => step.name === name)?.run ?? ''
const indexOf = (name: string): number => steps.findIndex((step) => step.name === name)

describe('the CI workflow', () => {
  it('runs on Linux, macOS and Windows, with bash (Git Bash on Windows) and Node 20', () => {
    expect(job.strategy.matrix.os).toEqual(['ubuntu-latest', 'macos-latest', 'windows-latest'])
    expect(job['runs-on']).toBe('${{ matrix.os }}')
    expect(job.defaults.run.shell).toBe('bash')
    expect(steps.find((step) => step.uses?.startsWith('actions/setup-node@'))?.with).toMatchObject({ 'node-version': 20 })
  })

  it('pins every action by its major version', () => {
    const actions = steps.flatMap((step) => (step.uses === undefined ? [] : [step.uses]))
    expect(actions.length).toBeGreaterThan(0)
    for (const action of actions) expect(action).toMatch(/^actions\/[a-z-]+@v\d+$/)
  })

  it('installs the way .ci/run does: its npm lines and, on Linux, its Debian packages but the Chromiums', () => {
    const ciRun = readFileSync(path.join(repositoryRoot, '.ci', 'run'), 'utf8')
    const npmLines = ciRun.split('\n').filter((line) => /^npm (ci|rebuild)\b/.test(line))
    expect(npmLines.length).toBe(3)
    expect(runOf('Install dependencies (install scripts off, as .ci/run)').trim().split('\n')).toEqual(npmLines)

    const debian = /packages=\(([^)]*)\)/.exec(ciRun)?.[1]?.split(/\s+/).filter(Boolean) ?? []
    const linux = steps.find((step) => step.name === 'Linux packages')
    expect(linux?.if).toBe("runner.os == 'Linux'")
    // GitHub's runners download Playwright's own browser instead.
    for (const name of debian.filter((name) => !name.startsWith('chromium'))) expect(linux?.run).toContain(` ${name}`)
    expect(linux?.run).toContain(' xvfb')
  })

  it('runs npm test, then the Electron smoke (required, under Xvfb on Linux), then packages and keeps them', () => {
    expect(runOf('npm test').trim()).toBe('npm test')
    const smoke = steps.find((step) => step.name === 'Electron smoke')
    expect(smoke?.env).toEqual({ ADOPS_REQUIRE_ELECTRON: '1' })
    expect(smoke?.run).toContain('xvfb-run -a bash test/with-keyring.sh npm run test:electron')
    expect(runOf("Electron's binary, and keytar built for Electron beside Node's")).toContain('node build/native-deps.mjs electron')
    expect(runOf('Packages').trim()).toBe('npm run dist')
    expect(indexOf('npm test')).toBeLessThan(indexOf('Electron smoke'))
    expect(indexOf('Electron smoke')).toBeLessThan(indexOf('Packages'))

    const upload = steps.find((step) => step.uses?.startsWith('actions/upload-artifact@') && step.if === undefined)
    expect(upload?.with).toMatchObject({ 'if-no-files-found': 'error' })
    expect(String(upload?.with?.path)).toContain('dist/*.exe')
    expect(steps.indexOf(upload as Step)).toBeGreaterThan(indexOf('Packages'))
  })
})
