import { describe, expect, it } from 'vitest'
import { createSerialQueue } from '../../../main/services/files/serial-queue'

describe('createSerialQueue', () => {
  it('runs work one piece at a time in call order, and a failure does not block what follows', async () => {
    const serial = createSerialQueue()
    const events: string[] = []
    const step =
      (name: string, ms: number, fail = false) =>
      () =>
        new Promise<string>((resolve, reject) => {
          events.push(`start ${name}`)
          setTimeout(() => {
            events.push(`end ${name}`)
            if (fail) reject(new Error(name))
            else resolve(name)
          }, ms)
        })
    const first = serial(step('a', 20))
    const second = serial(step('b', 1, true))
    const third = serial(step('c', 1))
    await expect(first).resolves.toBe('a')
    await expect(second).rejects.toThrow('b')
    await expect(third).resolves.toBe('c')
    expect(events).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c'])
  })
})
