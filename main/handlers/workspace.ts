import type { Services } from '../services'
import { parseRequestHandler } from './presets'
import type { HandlersFor } from './types'

export function workspaceHandlers({ workspace, entities }: Services): HandlersFor<'workspace'> {
  return {
    'workspace:state': () => workspace.state(),
    async 'workspace:activate'({ profileId }) {
      const profile = await workspace.activate(profileId)
      // The lists are what the user opens next: read their local copies from disk now, in the
      // background, so the first list paints from memory instead of waiting on a 10 MB file.
      setImmediate(() => void entities.warm(profileId))
      return profile
    },
  }
}

export function requestHandlers({ requests }: Services): HandlersFor<'requests'> {
  return {
    async 'requests:cancel'({ requestId }) {
      requests.cancel(requestId)
      return null
    },
    'requests:parse': parseRequestHandler,
  }
}
