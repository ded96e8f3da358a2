import { describe, expect, it } from 'vitest'
import { presetHandlers } from '../../../main/handlers/presets'
import type { Services } from '../../../main/services'

describe('history:list', () => {
  it('answers once the lines of runs already answered are written, so the run just shown is listed', async () => {
    const order: string[] = []
    let finishWriting: () => void = () => undefined
    const writing = new Promise<void>((resolve) => (finishWriting = resolve))
    const page = { entries: [], total: 0 }
    const services = {
      reports: { flush: () => writing.then(() => void order.push('written')) },
      runHistory: { list: async () => (order.push('listed'), page) },
    } as unknown as Services
    const listing = presetHandlers(services)['history:list']({ limit: 50 })
    await new Promise((resolve) => setImmediate(resolve))
    expect(order).toEqual([])
    finishWriting()
    expect(await listing).toBe(page)
    expect(order).toEqual(['written', 'listed'])
  })
})
