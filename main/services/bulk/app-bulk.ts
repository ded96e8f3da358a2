import type { EventHub } from '../events'
import type { SaveFileDialog } from '../files/dialogs'
import { createEntityService, type EntityService } from '../entities/entity-service'
import type { MirrorStore } from '../entities/mirror-store'
import type { Workspace } from '../workspace/workspace'
import { changesFolder, createChangeLog } from '../changes/change-log'
import { createBulkApplier } from './apply'
import type { BulkApplier, ChangeLog } from './apply-types'
import { createJournalStore, journalsFolder } from './journal'

export type { BulkApplier, ChangeLog }

export interface AppEntitiesOptions {
  userDataDir: string
  workspace: Workspace
  mirrors: MirrorStore
  events: EventHub
  saveDialog: SaveFileDialog
  now?: (() => Date) | undefined
}

/**
 * The app's entity writes and their record: the entity service (single edits), the change log
 * both write to, and the bulk applier (imports, bulk edits, reverts) with its journals, all in
 * the user data folder and keeping the same mirrors up to date.
 */
export function createAppEntities(options: AppEntitiesOptions): { entities: EntityService; changes: ChangeLog; bulk: BulkApplier } {
  const { userDataDir, workspace, mirrors, events, saveDialog } = options
  const pinned = options.now === undefined ? {} : { now: options.now }
  const changes = createChangeLog({ folder: changesFolder(userDataDir) })
  const entities = createEntityService({ workspace, mirrors, events, saveDialog, changeLog: changes, ...pinned })
  const bulk = createBulkApplier({
    workflowFor: async (profileId) => (await workspace.connection(profileId)).workflow,
    journals: createJournalStore({ folder: journalsFolder(userDataDir) }),
    changeLog: changes,
    mirrors,
    // The 406 on a delete explained as the entity form explains it: the dependents named.
    explainDependents: (profileId, kind, id, error) => entities.explainDependents(profileId, kind, id, error),
    ...pinned,
  })
  return { entities, changes, bulk }
}
