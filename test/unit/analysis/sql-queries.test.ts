import { describe, expect, it } from 'vitest'
import { engineProblem, loadEngine } from '../../../main/services/analysis/engine'
import { createSqlQueries, SQL_ANSWER_LIMITS, type QueryConnection } from '../../../main/services/analysis/sql-answer'

/**
 * A query whose engine work ignores the interrupt (a constant folded while preparing runs to its
 * end): the call still answers at the limit, its connection closes only once the engine lets go,
 * and while it is being stopped the next query is refused with a sentence (issue 38, item 5).
 */

interface StandIn {
  connection: QueryConnection
  interrupts: number
  closes: number
  /** Ends the engine's work: the interrupt is seen at last. */
  finish(): void
}

function stubbornConnection(): StandIn {
  let finish = (): void => undefined
  const standIn: StandIn = {
    interrupts: 0,
    closes: 0,
    finish: () => finish(),
    connection: {
      extractStatements: () =>
        new Promise<never>((_, reject) => {
          finish = () => reject(new Error('INTERRUPT Error: Interrupted!'))
        }),
      stream: () => Promise.reject(new Error('never reached')),
      interrupt: () => {
        standIn.interrupts++
      },
      closeSync: () => {
        standIn.closes++
      },
    },
  }
  return standIn
}

const limits = { ...SQL_ANSWER_LIMITS, rowCap: 10, timeLimitMs: 20 }
const acceptAll = (): void => undefined

describe('a query that ignores its interrupt', () => {
  it('answers at the limit, holds its connection until the engine lets go, and refuses the next one meanwhile', async () => {
    const engine = await loadEngine()
    const standIns: StandIn[] = []
    const queries = createSqlQueries({
      engine,
      connect: async () => {
        const standIn = stubbornConnection()
        standIns.push(standIn)
        return standIn.connection
      },
      problem: engineProblem,
      stopGraceMs: 10,
    })
    await expect(queries.read('SELECT 1', acceptAll, limits)).rejects.toThrow('The query ran longer than 0 seconds and was stopped')
    const [first] = standIns
    expect(first).toMatchObject({ interrupts: 1, closes: 0 })
    await expect(queries.read('SELECT 2', acceptAll, limits)).rejects.toThrow(
      'The last query passed the time limit and is still being stopped; wait a few seconds, then run this one.',
    )
    expect(standIns).toHaveLength(1)
    first?.finish()
    await queries.idle()
    expect(first?.closes).toBe(1)
    // Stopped at last: the next query gets a connection of its own again.
    const next = queries.read('SELECT 3', acceptAll, limits)
    await expect(next).rejects.toThrow('ran longer than')
    expect(standIns).toHaveLength(2)
    standIns[1]?.finish()
    await queries.idle()
  })
})
