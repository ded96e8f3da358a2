import type { Services } from '../services'
import { builtInKinds } from '../services/entities/kinds'
import type { HandlersFor } from './types'

export function entityHandlers({ entities, requests }: Services): HandlersFor<'entities'> {
  return {
    'entities:kinds': async () => builtInKinds,
    async 'entities:mirror'({ profileId, kind, offset, limit }) {
      const { rows, syncedAt } = await entities.mirror(profileId, kind)
      const start = offset ?? 0
      const slice = start === 0 && limit === undefined ? rows : rows.slice(start, limit === undefined ? undefined : start + limit)
      return { rows: slice, syncedAt, total: rows.length }
    },
    'entities:sync': ({ profileId, kind, requestId }) => requests.run(requestId, (signal) => entities.sync(profileId, kind, signal)),
    'entities:get': ({ profileId, kind, id }) => requests.run(undefined, (signal) => entities.get(profileId, kind, id, signal)),
    'entities:create': ({ profileId, kind, entity }) => entities.create(profileId, kind, entity),
    'entities:update': ({ profileId, kind, id, original, changes, force }) => entities.update(profileId, kind, id, original, changes, force === true),
    async 'entities:delete'({ profileId, kind, id }) {
      await entities.delete(profileId, kind, id)
      return null
    },
    'entities:exportCsv': ({ profileId, kind, ids, columns }) => entities.exportCsv(profileId, kind, ids, columns),
  }
}

export function draftHandlers({ drafts }: Services): HandlersFor<'drafts'> {
  return {
    'drafts:list': ({ profileId }) => drafts.list(profileId),
    async 'drafts:save'({ profileId, kind, key, draft, original }) {
      await drafts.save(profileId, { kind, key, draft, original })
      return null
    },
    async 'drafts:discard'({ profileId, kind, key }) {
      await drafts.discard(profileId, kind, key)
      return null
    },
  }
}
