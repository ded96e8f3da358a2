import type { Entity, EntityId } from '../../services/workflow/entities'
import { entityIdProblem, isEntityKind } from '../../services/workflow/entities'
import type { Command, CommandContext } from '../command'
import { connectionKey } from '../connection-key'
import { writeCsv } from '../csv'
import { readJsonObject, writeJson, writeText } from '../io'
import { UsageError } from '../usage'
import { importEntities } from './entity-import'

function kindArgument(context: CommandContext): string {
  const kind = context.args[0] ?? ''
  if (!isEntityKind(kind)) throw new UsageError(`"${kind}" is not an entity kind: use a lower-case path name such as publishers, brands or ad_units.`)
  return kind
}

/** Ids are integers on the platform; anything else is passed through as text for kinds that differ. */
function idArgument(context: CommandContext): EntityId {
  const raw = (context.args[1] ?? '').trim()
  if (raw === '') throw new UsageError('The entity id is empty.')
  const id = /^\d+$/.test(raw) && Number.isSafeInteger(Number(raw)) ? Number(raw) : raw
  // Refused here, before connecting, as the client would refuse it before building the URL.
  const problem = entityIdProblem(id)
  if (problem !== null) throw new UsageError(problem)
  return id
}

function dataArgument(context: CommandContext): string {
  const data = context.values.data
  if (data === undefined) throw new UsageError('--data FILE (or --data - for standard input) is required.')
  return data
}

const CHANGE_LOG_NOTE = 'Recorded in the connection\'s change log ("changes list"), as the app records its single writes, whether the platform took it or not.'

/** The app's entity service over this command's connection, and the key its change log is kept under. */
async function entityWrites(context: CommandContext) {
  const connection = await context.connect()
  return { writes: context.services.entities(connection), profileId: await connectionKey(context.values, context.services) }
}

const list: Command = {
  group: 'entities',
  name: 'list',
  args: ['<kind>'],
  options: ['format', 'page-size'],
  connection: 'workflow',
  summary: 'all entities of a kind, every page, streamed to standard output',
  notes: ["With --format csv the header is the union of all entities' fields; lists and objects are written as JSON."],
  async run(context) {
    const kind = kindArgument(context)
    const format = context.values.format ?? 'json'
    if (format !== 'json' && format !== 'csv') throw new UsageError(`--format must be json or csv, not "${format}".`)
    const pageSize = context.values['page-size']
    if (pageSize !== undefined && !/^[1-9]\d{0,5}$/.test(pageSize)) throw new UsageError(`--page-size must be a positive whole number, not "${pageSize}".`)

    const connection = await context.connect()
    const pages = connection.workflow.list(kind, { signal: context.signal, ...(pageSize === undefined ? {} : { query: { page_size: pageSize } }) })
    const out = (text: string): Promise<void> => writeText(context.io.stdout, text)
    if (format === 'csv') {
      await writeCsv(pages, out)
      return
    }
    // A JSON array written a page at a time, one entity per line: memory holds one page, however many there are.
    let first = true
    for await (const page of pages) {
      if (page.length === 0) continue
      const lines = page.map((entity: Entity) => JSON.stringify(entity)).join(',\n')
      await out(`${first ? '[\n' : ',\n'}${lines}`)
      first = false
    }
    await out(first ? '[]\n' : '\n]\n')
  },
}

const get: Command = {
  group: 'entities',
  name: 'get',
  args: ['<kind>', '<id>'],
  options: [],
  connection: 'workflow',
  summary: 'one entity',
  async run(context) {
    const kind = kindArgument(context)
    const id = idArgument(context)
    const connection = await context.connect()
    await writeJson(context.io.stdout, await connection.workflow.get(kind, id, { signal: context.signal }))
  },
}

const create: Command = {
  group: 'entities',
  name: 'create',
  args: ['<kind>'],
  options: ['data'],
  connection: 'workflow',
  summary: 'create an entity from a JSON object; prints it with its new id',
  notes: ['Never repeated automatically: if the outcome is unknown, the error says so.', CHANGE_LOG_NOTE],
  async run(context) {
    const kind = kindArgument(context)
    const entity = await readJsonObject(dataArgument(context), '--data', context.io.stdin)
    const { writes, profileId } = await entityWrites(context)
    await writeJson(context.io.stdout, await writes.create(profileId, kind, entity))
  },
}

const update: Command = {
  group: 'entities',
  name: 'update',
  args: ['<kind>', '<id>'],
  options: ['data'],
  connection: 'workflow',
  summary: 'replace an entity with a JSON object (send the whole entity, as "entities get" prints it)',
  notes: ["Sent as the app sends an edit: the platform's copy, read just before, with the fields of --data on top.", CHANGE_LOG_NOTE],
  async run(context) {
    const kind = kindArgument(context)
    const id = idArgument(context)
    const entity = await readJsonObject(dataArgument(context), '--data', context.io.stdin)
    if (entity.id !== undefined && String(entity.id) !== String(id)) {
      throw new UsageError(`The id in --data (${String(entity.id)}) is not the id ${String(id)} being updated.`)
    }
    const { writes, profileId } = await entityWrites(context)
    // Forced: the command line has no form that opened an earlier copy, so there is nothing to be in conflict with.
    await writes.update(profileId, kind, id, entity, entity, true)
    await writeJson(context.io.stdout, { kind, id, updated: true })
  },
}

const remove: Command = {
  group: 'entities',
  name: 'delete',
  args: ['<kind>', '<id>'],
  options: [],
  connection: 'workflow',
  summary: 'delete an entity',
  notes: [CHANGE_LOG_NOTE],
  async run(context) {
    const kind = kindArgument(context)
    const id = idArgument(context)
    const { writes, profileId } = await entityWrites(context)
    await writes.delete(profileId, kind, id)
    await writeJson(context.io.stdout, { kind, id, deleted: true })
  },
}

export const entityCommands: readonly Command[] = [list, get, create, update, remove, importEntities]
