/**
 * How a bench reports against its targets: every figure is printed with its target, met or
 * not, and the bench fails (run.ts exits non-zero) once all figures are out if any was missed.
 * A bench whose measurement went wrong (a bad status, rows missing, a keystroke not seen)
 * fails at once through `ensure`: its figures would mean nothing.
 */

export interface Targets {
  /**
   * Prints `label value unit  target < limit` with how far off it is, and remembers a miss.
   * `atMost` makes the limit inclusive (a ratio "≤ 1.20").
   */
  check(label: string, value: number, unit: string, limit: number, options?: { atMost?: boolean }): void
  /** Prints a figure that has no target of its own (a part of a total, a baseline). */
  note(label: string, value: number, unit: string): void
  /** Throws, naming every missed target, when any was missed. */
  verdict(): void
}

const LABEL_WIDTH = 52

/** A bench that ran well and measured what it claims, but missed a target: its message says enough, no stack needed. */
export class TargetsMissed extends Error {
  override name = 'TargetsMissed'
}

function format(value: number, unit: string): string {
  const digits = unit === 's' || unit === '×' ? 2 : 1
  return `${value.toFixed(digits)} ${unit}`.padStart(12)
}

export function createTargets(write: (text: string) => void = (text) => process.stdout.write(text)): Targets {
  const missed: string[] = []
  return {
    check(label, value, unit, limit, options = {}) {
      const met = Number.isFinite(value) && (options.atMost === true ? value <= limit : value < limit)
      const bound = `${options.atMost === true ? '≤' : '<'} ${limit} ${unit}`
      write(
        `${label.padEnd(LABEL_WIDTH)} ${format(value, unit)}   target ${bound.padEnd(12)} ${(value / limit).toFixed(2)} of target  ${met ? 'ok' : 'MISSED'}\n`,
      )
      if (!met) missed.push(`${label}: ${format(value, unit).trim()}, target ${bound}`)
    },
    note(label, value, unit) {
      write(`${label.padEnd(LABEL_WIDTH)} ${format(value, unit)}\n`)
    },
    verdict() {
      if (missed.length > 0) throw new TargetsMissed(`${missed.length} target${missed.length === 1 ? '' : 's'} missed:\n  ${missed.join('\n  ')}`)
    },
  }
}

/** Stops the bench when what it measured is not what it claims to measure. */
export function ensure(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(`the measurement is not valid: ${message}`)
}
