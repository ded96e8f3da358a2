/** Types of build/gate.mjs, for the test that runs its scheduler with fake checks. */
export interface Check {
  name: string
  command: string[]
  needs: string[]
  weight: number
  /** Runs at a lower priority (BACKGROUND_NICENESS), taking what the foreground leaves idle. */
  background?: boolean
  /** The exit code that means "ran nothing, passed nothing": listed as skipped, no failure. */
  skipCode?: number
}
export interface CheckOutcome {
  code: number
  seconds: number
  /** Ended by the gate because another check failed. */
  stopped: boolean
  /** Ended with the check's skipCode: neither passed nor failed. */
  skipped: boolean
}
export interface CheckHandle {
  /** The check's process, where it is one. */
  pid?: number
  done: Promise<number>
  stop(): void
}
/** The checks for a machine of `cores` cores (vitest's workers and weight follow them). */
export function checksFor(cores: number): Check[]
export const CORES: number
export const BACKGROUND_NICENESS: number
/** Starts a check's command as a process group (niced when the check is a background one). */
export function startProcess(check: Check): CheckHandle
export const CHECKS: Check[]
export function selectChecks(checks: Check[], names: string[]): Check[]
export function runChecks(
  checks: Check[],
  options: { slots: number; start(check: Check): CheckHandle; now?: () => number; onEnd?(check: Check, outcome: CheckOutcome): void },
): Promise<Map<string, CheckOutcome>>
export const SKIPPED_EXIT_CODE: number
/** 'passed' | 'skipped' | 'stopped' | 'FAILED' | 'not run'. */
export function stateOf(outcome: CheckOutcome | undefined): string
export function gateExitCode(checks: Check[], outcomes: Map<string, CheckOutcome>): number
export function summaryLines(checks: Check[], outcomes: Map<string, CheckOutcome>, totalSeconds: number): string[]
