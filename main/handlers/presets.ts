import type { Services } from '../services'
import { parsePastedRequest } from '../services/presets/paste'
import { reduceKeptChart } from '../services/results/kept-chart'
import type { Handlers, HandlersFor } from './types'

/** Presets, their files, the results kept from runs and the run history: thin calls into the services. */
export function presetHandlers({
  presets,
  presetFiles,
  results,
  history,
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
    'results:get': async ({ profileId, definition, preset, kind, pointBudget }) => {
      const kept = await results.get(profileId, kind, definition, preset ?? null)
      return kept?.kind === 'chart' ? { ...kept, result: reduceKeptChart(kept.result, pointBudget) } : kept
    },
    'history:list': (query) => history.list(query),
    'history:get': ({ id }) => history.get(id),
  }
}

/** "Paste a request": pure, no connection needed. */
export const parseRequestHandler: Handlers['requests:parse'] = async ({ text, base }) => parsePastedRequest(text, base)
