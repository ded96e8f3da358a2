import type { EventHub } from '../events'
import type { EntityService } from '../entities/entity-service'
import { kindSpec } from '../entities/kinds'
import type { OpenFilesDialog, SaveFileDialog } from '../files/dialogs'
import type { BulkApplier } from './apply-types'
import { createBulkDesk, type BulkDesk } from './desk'
import { readImportFile } from './import-file'

/**
 * The bulk changes' screens (issue 23) as the app assembles them: plans kept by id for the page,
 * applied by the app's bulk applier, planned from the entity mirrors, the import file opened by
 * the host's dialog; and the save dialog the change log's CSV export asks.
 */
export interface AppDesk {
  desk: BulkDesk
  saveDialog: SaveFileDialog
}

/** What the services hold for the screens (services/index.ts extends it). */
export interface DeskServices {
  bulkDesk: AppDesk
}

export function createAppDesk(options: { entities: EntityService; bulk: BulkApplier; dialogs: OpenFilesDialog & SaveFileDialog; events: EventHub }): AppDesk {
  const { entities, bulk, dialogs, events } = options
  const desk = createBulkDesk({
    mirrorOf: async (profileId, kind) => (await entities.mirror(profileId, kind)).rows,
    specOf: kindSpec,
    openDialog: dialogs,
    readFile: readImportFile,
    applier: bulk,
    events,
  })
  return { desk, saveDialog: dialogs }
}
