import type { Services } from '../services'
import type { HandlersFor } from './handlers'

export function workspaceHandlers({ workspace }: Services): HandlersFor<'workspace'> {
  return {
    'workspace:state': () => workspace.state(),
    'workspace:activate': ({ profileId }) => workspace.activate(profileId),
  }
}

export function requestHandlers({ requests }: Services): HandlersFor<'requests'> {
  return {
    async 'requests:cancel'({ requestId }) {
      requests.cancel(requestId)
      return null
    },
  }
}
