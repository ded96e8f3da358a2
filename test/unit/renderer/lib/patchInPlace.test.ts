import { describe, expect, it } from 'vitest'
import { effect, reactive } from 'vue'
import { patchInPlace } from '../../../../renderer/src/lib/patchInPlace'

describe('patchInPlace', () => {
  it('ends equal to the source: keys added, changed and removed, arrays grown and shrunk', () => {
    const target: Record<string, unknown> = { a: 1, gone: true, list: [1, 2, 3], nested: { keep: 'x', swap: { mode: 'fixed', offset: 3 } }, rows: [{ id: 1 }] }
    const source = { a: 2, list: [1, 5], nested: { keep: 'x', swap: { mode: 'report' } }, rows: [{ id: 1 }, { id: 2 }], added: null }
    patchInPlace(target, source)
    expect(target).toEqual(source)
  })

  it('keeps unchanged parts untouched, so what reads only them does not run again', () => {
    const state = reactive<Record<string, unknown>>({ dates: { start: '-30d', end: 'today' }, metrics: ['requests'], chart: { type: 'line', hidden: [] } })
    const runs = { dates: 0, metrics: 0, chart: 0 }
    effect(() => {
      JSON.stringify(state['dates'])
      runs.dates++
    })
    effect(() => {
      JSON.stringify(state['metrics'])
      runs.metrics++
    })
    effect(() => {
      JSON.stringify(state['chart'])
      runs.chart++
    })
    const chart = state['chart']
    patchInPlace(state, { dates: { start: '-30d', end: 'today' }, metrics: ['requests'], chart: { type: 'bar', hidden: [] } })
    expect(runs).toEqual({ dates: 1, metrics: 1, chart: 2 })
    // The same object, changed in place.
    expect(state['chart']).toBe(chart)
    expect(state['chart']).toEqual({ type: 'bar', hidden: [] })
  })

  it('never writes through __proto__ or constructor, even when a parsed file carries them', () => {
    const target: Record<string, unknown> = { name: 'a' }
    patchInPlace(
      target,
      JSON.parse('{ "name": "b", "__proto__": { "polluted": true }, "constructor": { "prototype": { "polluted": true } } }') as Record<string, unknown>,
    )
    expect(target['name']).toBe('b')
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
    expect(Object.getPrototypeOf(target)).toBe(Object.prototype)
  })
})
