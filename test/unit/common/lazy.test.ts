import { describe, expect, it, vi } from 'vitest'
import { lazy } from '../../../common/lazy'

describe('lazy', () => {
  it('makes nothing until asked, then makes the value once and keeps it', () => {
    const make = vi.fn(() => new Intl.Collator('en', { numeric: true }))
    const collator = lazy(make)
    expect(make).not.toHaveBeenCalled()
    const first = collator()
    expect(collator()).toBe(first)
    expect(make).toHaveBeenCalledTimes(1)
  })

  it('keeps a value that is falsy', () => {
    const make = vi.fn(() => 0)
    const zero = lazy(make)
    expect([zero(), zero()]).toEqual([0, 0])
    expect(make).toHaveBeenCalledTimes(1)
  })
})
