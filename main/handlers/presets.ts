import type { CachedResult, ReportDefinition, RunKind } from '@contract'
import type { Services } from '../services'
import { parsePastedRequest } from '../services/presets/paste'
import { reduceKeptChart } from '../services/results/kept-chart'
import type { ResultCache } from '../services/results/result-cache'
import type { Handlers, HandlersFor } from './types'

interface KeptResultQuery {
  definition: ReportDefinition
  preset?: string | null | undefined
  kind: RunKind
  pointBudget?: number | undefined
}

/** A kept result as the page gets it: a chart cut to the budget asked for, as a run would cut it. */
async function keptResult(results: ResultCache, profileId: string, { definition, preset, kind, pointBudget }: KeptResultQuery): Promise<CachedResult | null> {
  const kept = await results.get(profileId, kind, definition, preset ?? null)
  return kept?.kind === 'chart' ? { ...kept, result: reduceKeptChart(kept.result, pointBudget) } : kept
}

/** Presets, their files, the results kept from runs and the run history: thin calls into the services. */
export function presetHandlers({
  presets,
  presetFiles,
  results,
  runHistory,
  reports,
  alerts,
}: Services): HandlersFor<'presets'> & HandlersFor<'results'> & HandlersFor<'history'> {
  return {
    'presets:list': () => presets.list(),
    'presets:get': ({ name }) => presets.get(name),
    'presets:save': ({ name, definition, description, replace }) => presets.save({ name, definition, description }, replace),
    // A renamed preset keeps its alert rules (they are filed by the preset's name).
    'presets:rename': async ({ name, newName }) => {
      const renamed = await presets.rename(name, newName)
      await alerts.presetRenamed(name, renamed.name)
      return renamed
    },
    'presets:duplicate': ({ name, newName }) => presets.duplicate(name, newName),
    'presets:delete': ({ name }) => presets.delete(name),
    'presets:restore': ({ name }) => presets.restore(name),
    'presets:import': ({ replace }) => presetFiles.import({ replace: replace === true }),
    'presets:export': ({ names }) => presetFiles.export(names),
    // A kept chart reaches the page cut to the same budget as a live run, never with every point it was kept with.
    'results:get': ({ profileId, definition, preset, kind, pointBudget }) => keptResult(results, profileId, { definition, preset, kind, pointBudget }),
    // One after another: the cache reads one at a time anyway. A result that cannot be read is
    // null, as it would be alone (a damaged file is moved aside and said so by the cache).
    'results:getMany': async ({ profileId, queries }) => {
      const answers: Array<CachedResult | null> = []
      for (const query of queries) answers.push(await keptResult(results, profileId, query).catch(() => null))
      return answers
    },
    // A run's line is written after its answer is handed back (a large result must not hold up the
    // chart): the list waits for the lines still being written, so a run already shown is in it.
    'history:list': async (query) => {
      await reports.flush()
      return runHistory.list(query)
    },
    'history:get': ({ id }) => runHistory.get(id),
  }
}

/** "Paste a request": pure, no connection needed. */
export const parseRequestHandler: Handlers['requests:parse'] = async ({ text, base }) => parsePastedRequest(text, base)
