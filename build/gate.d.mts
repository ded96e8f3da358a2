/** Types of build/gate.mjs, for the test that runs its scheduler with fake checks. */
export interface Check {
  name: string
  command: string[]
  needs: string[]
  weight: number
}
export interface CheckOutcome {
  code: number
  seconds: number
  /** Ended by the gate because another check failed. */
  stopped: boolean
}
export interface CheckHandle {
  done: Promise<number>
  stop(): void
}
/** The checks for a machine of `cores` cores (vitest's workers and weight follow them). */
export function checksFor(cores: number): Check[]
export const CORES: number
export const CHECKS: Check[]
export function selectChecks(checks: Check[], names: string[]): Check[]
export function runChecks(
  checks: Check[],
  options: { slots: number; start(check: Check): CheckHandle; now?: () => number; onEnd?(check: Check, outcome: CheckOutcome): void },
): Promise<Map<string, CheckOutcome>>
