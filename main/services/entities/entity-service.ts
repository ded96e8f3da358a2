import { randomUUID } from 'node:crypto'
import path from 'node:path'
import { sameId, type Dependent, type Entity, type EntityId, type UpdateResult } from '@contract'
import { AppError, isAppError } from '../errors'
import type { EventHub } from '../events'
import { writeFileAtomic } from '../files/atomic'
import { csvRow } from '../files/csv'
import type { SaveFileDialog } from '../files/dialogs'
import { chooseSaveTarget } from '../files/save-target'
import type { ChangeLog, ChangeRecord } from '../bulk/apply-types'
import type { Workspace } from '../workspace/workspace'
import { dependentsError, entityName, findDependents } from './dependents'
import { builtInKinds, kindSpec } from './kinds'
import type { Mirror, MirrorStore } from './mirror-store'

export type { UpdateResult }

export interface EntityService {
  mirror(profileId: string, kind: string): Promise<Mirror>
  /** Loads the built-in kinds' mirrors into memory, one after another; never fails. */
  warm(profileId: string): Promise<void>
  sync(profileId: string, kind: string, signal: AbortSignal): Promise<{ count: number; syncedAt: string }>
  get(profileId: string, kind: string, id: EntityId, signal: AbortSignal): Promise<Entity>
  create(profileId: string, kind: string, entity: Record<string, unknown>): Promise<Entity>
  update(
    profileId: string,
    kind: string,
    id: EntityId,
    original: Record<string, unknown>,
    changes: Record<string, unknown>,
    force: boolean,
  ): Promise<UpdateResult>
  delete(profileId: string, kind: string, id: EntityId): Promise<void>
  /** The platform's 406 on a delete as a sentence naming the entities that depend on this one (also a bulk apply's failed row). */
  explainDependents(profileId: string, kind: string, id: EntityId, error: AppError): Promise<AppError>
  /** Asks main's save dialog where; null when the user cancels. Answers the file's base name only. */
  exportCsv(
    profileId: string,
    kind: string,
    ids: EntityId[],
    columns: Array<{ key: string; title: string }>,
  ): Promise<{ fileName: string; rows: number } | null>
}

export interface EntityServiceOptions {
  /** Where each profile's connection comes from (the command line hands its one connection). */
  workspace: Pick<Workspace, 'connection'>
  mirrors: MirrorStore
  events: EventHub
  /** The OS save dialog in the app; in the web host, a new name in its exports folder. The page never gives a path. */
  saveDialog: SaveFileDialog
  now?: () => Date
  /** Where single writes are recorded (a batch of one each); none in tests that do not look at it. */
  changeLog?: Pick<ChangeLog, 'record'>
  newId?: () => string
}

/** The fields whose values differ between two copies of an entity (compared as JSON). */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)])
  return [...keys].filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key])).sort()
}

export function createEntityService({
  workspace,
  mirrors,
  events,
  saveDialog,
  now = () => new Date(),
  changeLog,
  newId = randomUUID,
}: EntityServiceOptions): EntityService {
  const upsert = (entity: Entity) => (rows: Entity[]) => {
    const index = rows.findIndex((row) => sameId(row.id, entity.id))
    if (index < 0) return [...rows, entity]
    const next = rows.slice()
    next[index] = entity
    return next
  }

  /** A single write in the change log: a batch of one, named for what it did. */
  async function record(
    profileId: string,
    kind: string,
    write: Pick<ChangeRecord, 'id' | 'before' | 'after' | 'outcome'> & { reason?: string },
  ): Promise<void> {
    if (changeLog === undefined) return
    const singular = kindSpec(kind)?.singular ?? kind
    const verb = write.before === null ? 'Create' : write.after === null ? 'Delete' : 'Edit'
    const title = `${verb} of ${singular} ${write.id === null ? '(new)' : String(write.id)}`
    const at = now().toISOString()
    await changeLog.record([{ change: newId(), batch: newId(), source: 'single', title, at, profileId, kind, ...write }])
  }

  /** The sentence for a delete the platform refused because others depend on the entity. */
  async function explainDependents(profileId: string, kind: string, id: EntityId, error: AppError): Promise<AppError> {
    const dependents = await dependentsOf(profileId, kind, id, new AbortController().signal)
    const mirror = await mirrors.read(profileId, kind)
    return dependentsError(
      entityName(
        kind,
        id,
        mirror.rows.find((row) => sameId(row.id, id)),
      ),
      dependents,
      error,
    )
  }

  async function sync(profileId: string, kind: string, signal: AbortSignal): Promise<{ count: number; syncedAt: string }> {
    const { workflow } = await workspace.connection(profileId)
    const rows: Entity[] = []
    let count = 0
    const pages = workflow.list(kind, { signal, onProgress: (progress) => (count = progress.count) })
    for await (const page of pages) {
      for (const entity of page) rows.push(entity)
      events.emit('onSyncProgress', { profileId, kind, fetched: rows.length, count: Math.max(count, rows.length), rows: page })
    }
    const syncedAt = now().toISOString()
    await mirrors.write(profileId, kind, { rows, syncedAt })
    return { count: rows.length, syncedAt }
  }

  /** Entities of other kinds that point at this one, from the local lists (fetched when never synced). */
  async function dependentsOf(profileId: string, kind: string, id: EntityId, signal: AbortSignal): Promise<Dependent[]> {
    return findDependents(kind, id, async (linked) => {
      let mirror = await mirrors.read(profileId, linked)
      if (mirror.syncedAt === null) {
        await sync(profileId, linked, signal).catch(() => undefined)
        mirror = await mirrors.read(profileId, linked)
      }
      return mirror.rows
    })
  }

  return {
    mirror: (profileId, kind) => mirrors.read(profileId, kind),

    async warm(profileId) {
      for (const { kind } of builtInKinds) await mirrors.read(profileId, kind).catch(() => undefined)
    },

    sync,

    async get(profileId, kind, id, signal) {
      const { workflow } = await workspace.connection(profileId)
      const entity = await workflow.get(kind, id, { signal })
      await mirrors.change(profileId, kind, upsert(entity))
      return entity
    },

    async create(profileId, kind, entity) {
      const { workflow } = await workspace.connection(profileId)
      let created: Entity
      try {
        created = await workflow.create(kind, entity)
      } catch (error) {
        if (isAppError(error)) await record(profileId, kind, { id: null, before: null, after: entity, outcome: 'failed', reason: error.message })
        throw error
      }
      await mirrors.change(profileId, kind, upsert(created))
      await record(profileId, kind, { id: created.id, before: null, after: created, outcome: 'applied' })
      return created
    },

    async update(profileId, kind, id, original, changes, force) {
      const { workflow } = await workspace.connection(profileId)
      // Re-read first: someone may have changed it since the form opened. No silent lost update.
      const server = await workflow.get(kind, id)
      const changed = changedFields(original, server)
      if (changed.length > 0 && !force) {
        await mirrors.change(profileId, kind, upsert(server))
        // Nothing was sent: the form shows the conflict and nothing is written to the log until the user decides.
        return { status: 'conflict', server, changedFields: changed }
      }
      // The whole entity as the server has it now, with the user's edits on top (the spec's advice for PUT).
      const whole = { ...server, ...changes, id: server.id } as Entity
      try {
        await workflow.update(kind, id, whole)
      } catch (error) {
        if (isAppError(error)) await record(profileId, kind, { id, before: server, after: whole, outcome: 'failed', reason: error.message })
        throw error
      }
      await mirrors.change(profileId, kind, upsert(whole))
      await record(profileId, kind, { id, before: server, after: whole, outcome: 'applied' })
      return { status: 'saved', entity: whole }
    },

    async delete(profileId, kind, id) {
      const { workflow } = await workspace.connection(profileId)
      // What is deleted is kept in the log as its `before` (the platform's copy, else the list's), so a revert can create it again.
      const before: Record<string, unknown> =
        changeLog === undefined
          ? { id }
          : await workflow.get(kind, id).catch(async () => (await mirrors.read(profileId, kind)).rows.find((row) => sameId(row.id, id)) ?? { id })
      try {
        await workflow.delete(kind, id)
      } catch (error) {
        if (!isAppError(error)) throw error
        const explained = error.code === 'dependents' ? await explainDependents(profileId, kind, id, error) : error
        await record(profileId, kind, { id, before, after: null, outcome: 'failed', reason: explained.message })
        throw explained
      }
      await mirrors.change(profileId, kind, (rows) => rows.filter((row) => !sameId(row.id, id)))
      await record(profileId, kind, { id, before, after: null, outcome: 'applied' })
    },

    explainDependents,

    async exportCsv(profileId, kind, ids, columns) {
      // The list is read before asking where: a list that cannot be read opens no dialog.
      const { rows } = await mirrors.read(profileId, kind)
      const file = await chooseSaveTarget(saveDialog, `${kind}.csv`, { name: 'CSV', extensions: ['csv'] })
      if (file === null) return null
      const byId = new Map(rows.map((row) => [String(row.id), row]))
      const parts: string[] = [csvRow(columns.map((column) => column.title))]
      let written = 0
      for (const id of ids) {
        const row = byId.get(String(id))
        if (!row) continue
        parts.push(csvRow(columns.map((column) => row[column.key])))
        written += 1
      }
      try {
        await writeFileAtomic(file, parts.join(''))
      } catch (error) {
        // The sentence reaches the page: names, not the path.
        throw new AppError(
          'storage',
          `${path.basename(file)} could not be written in ${path.basename(path.dirname(file))}. Check that the folder still exists, that you may write to it and that the disk is not full.`,
          {
            errorCode: (error as NodeJS.ErrnoException).code ?? null,
          },
        )
      }
      return { fileName: path.basename(file), rows: written }
    },
  }
}
