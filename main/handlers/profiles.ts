import type { Services } from '../services'
import type { HandlersFor } from './handlers'

export function profileHandlers({ profiles }: Services): HandlersFor<'profiles'> {
  return {
    'profiles:list': () => profiles.list(),
    'profiles:create': (input) => profiles.create(input),
    'profiles:update': ({ id, profile }) => profiles.update(id, profile),
    'profiles:duplicate': ({ id }) => profiles.duplicate(id),
    'profiles:delete': async ({ id }) => {
      await profiles.delete(id)
      return null
    },
  }
}
