import type { Entity } from '../services/workflow/entities'
import type { ChangeLog } from '../services/bulk/apply-types'
import type { Connection } from '../services/connection/connection'
import { createEntityService, type EntityService } from '../services/entities/entity-service'
import type { Mirror, MirrorStore } from '../services/entities/mirror-store'
import { createEventHub } from '../services/events'

/** What `entities create`, `update` and `delete` write through: the app's entity service, so every write is in the change log. */
export type CliEntityWrites = Pick<EntityService, 'create' | 'update' | 'delete'>

/**
 * The app's entity service over one connection. Its lists are kept in memory for this command
 * only: the app's copies on disk are the app's (it caches them while it runs, and would write
 * its own copy back over ours), and a connection made from flags has no lists to keep. A delete
 * the platform refuses for dependents lists them from the platform, as the app does when its
 * lists were never fetched.
 */
export function cliEntityWrites(connection: Connection, changeLog: Pick<ChangeLog, 'record'>, now: () => Date): CliEntityWrites {
  return createEntityService({
    workspace: { connection: async () => connection },
    mirrors: memoryMirrors(),
    events: createEventHub(),
    // Only the list's CSV export asks where to save, and no command here exports it: a cancelled dialog.
    saveDialog: { chooseSavePath: async () => null },
    changeLog,
    now,
  })
}

function memoryMirrors(): MirrorStore {
  const lists = new Map<string, Mirror>()
  const keyOf = (profileId: string, kind: string) => JSON.stringify([profileId, kind])
  const read = async (profileId: string, kind: string): Promise<Mirror> => lists.get(keyOf(profileId, kind)) ?? { rows: [], syncedAt: null }
  return {
    read,
    write: async (profileId, kind, mirror) => void lists.set(keyOf(profileId, kind), mirror),
    async change(profileId, kind, apply: (rows: Entity[]) => Entity[]) {
      const current = await read(profileId, kind)
      const next = { rows: apply(current.rows), syncedAt: current.syncedAt }
      lists.set(keyOf(profileId, kind), next)
      return next
    },
    removeProfile: async (profileId) => {
      for (const key of [...lists.keys()]) if ((JSON.parse(key) as string[])[0] === profileId) lists.delete(key)
    },
  }
}
