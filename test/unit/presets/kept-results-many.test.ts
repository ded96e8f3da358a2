import { describe, expect, it } from 'vitest'
import { KEPT_RESULTS_PER_CALL, type Outcome, type ReportDefinition } from '@contract'
import { dispatch } from '../../../main/handlers/dispatch'
import { createHandlers } from '../../../main/handlers/handlers'
import { sampleDefinition } from '../../support/channel-samples'
import { singleSeriesChart } from '../../support/chart-results'
import { createTestServices, temporaryFolder } from '../../support/services'

/** results:getMany: a board's kept results in one call, each as results:get would answer it. */
const definitionFor = (project: string): ReportDefinition => ({ ...sampleDefinition, project })

describe('several kept results in one call', () => {
  it('answers in the order asked, null where none is kept, each chart cut to its budget as results:get cuts it', async () => {
    const services = await createTestServices({ userDataDir: await temporaryFolder() })
    const handlers = createHandlers(services, { nativeSaveDialog: false })
    const values = Array.from({ length: 2_000 }, (_, index) => (index % 7) * 10)
    for (const [project, preset] of [
      ['a', 'Weekly'],
      ['b', null],
    ] as const) {
      await services.results.put({
        profileId: 'p1',
        preset,
        definition: definitionFor(project),
        requests: [],
        kind: 'chart',
        result: singleSeriesChart({ values, ranAt: `ran ${project}`, timezone: 0, durationMs: 1 }),
      })
    }
    const query = (project: string, preset: string | null, pointBudget?: number) => ({
      definition: definitionFor(project),
      preset,
      kind: 'chart' as const,
      ...(pointBudget === undefined ? {} : { pointBudget }),
    })
    const many = (await dispatch(handlers, 'results:getMany', {
      profileId: 'p1',
      queries: [query('b', 'Some preset', 400), query('missing', null), query('a', 'weekly', 400)],
    })) as Outcome<Array<{ ranAt: string; result: { categories: string[] } } | null>>
    expect(many.ok).toBe(true)
    if (!many.ok) return
    expect(many.value.map((answer) => answer?.ranAt ?? null)).toEqual(['ran b', null, 'ran a'])
    const single = (await dispatch(handlers, 'results:get', { profileId: 'p1', ...query('a', 'Weekly', 400) })) as Outcome<unknown>
    expect(single).toEqual({ ok: true, value: many.value[2] })
    expect(many.value[2]?.result.categories.length).toBeLessThanOrEqual(400)
    await services.close()
  })

  it("asks for at most a board's tiles at once, and for at least one", async () => {
    const services = await createTestServices({ userDataDir: await temporaryFolder() })
    const handlers = createHandlers(services, { nativeSaveDialog: false })
    const queries = Array.from({ length: KEPT_RESULTS_PER_CALL + 1 }, () => ({ definition: sampleDefinition, kind: 'chart' as const }))
    expect(await dispatch(handlers, 'results:getMany', { profileId: 'p1', queries })).toMatchObject({ ok: false, error: { code: 'bad_input' } })
    expect(await dispatch(handlers, 'results:getMany', { profileId: 'p1', queries: [] })).toMatchObject({ ok: false, error: { code: 'bad_input' } })
    expect(await dispatch(handlers, 'results:getMany', { profileId: 'p1', queries: queries.slice(1) })).toMatchObject({ ok: true })
    await services.close()
  })
})
