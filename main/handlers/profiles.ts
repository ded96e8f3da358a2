import type { Services } from '../services'
import type { HandlersFor } from './types'

export function profileHandlers({ profiles, workspace, requests }: Services): HandlersFor<'profiles'> {
  return {
    async 'profiles:list'() {
      const demo = workspace.demoProfile()
      const stored = await profiles.list()
      return demo === null ? stored : [demo, ...stored]
    },
    'profiles:create': (input) => profiles.create(input),
    async 'profiles:update'({ id, profile }) {
      const updated = await profiles.update(id, profile)
      // New addresses or credentials: the cached connection and its tokens are stale.
      workspace.forget(id)
      return updated
    },
    'profiles:duplicate': ({ id }) => profiles.duplicate(id),
    async 'profiles:delete'({ id }) {
      await profiles.delete(id)
      workspace.forget(id)
      return null
    },
    'profiles:test': ({ id, requestId }) => requests.run(requestId, (signal) => workspace.test(id, signal)),
  }
}
