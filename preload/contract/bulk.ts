/**
 * Bulk changes (issue 23): plan a bulk edit, an import file or a revert, look at the plan a page
 * at a time, apply it with live outcomes, resume what an interrupted apply left, and read the
 * change log. A plan stays in main under its id: the page sends the id and the rows it
 * deselected, never entities, and a 100,000-row plan never crosses whole. No path crosses:
 * main's dialogs choose the files (the web host: its fixed imports and exports folders).
 */
import { z } from 'zod'
import { entityKindSchema } from './entities'
import { channel, entityIdSchema, profileRef } from './primitives'

export const planActions = ['create', 'update', 'delete', 'unchanged', 'error'] as const
/** `unknown`: a create whose answer was lost and that nothing can look up for sure; never sent again until the user decides (`bulk:settle`). */
export const rowStatuses = ['applied', 'conflict', 'failed', 'skipped', 'cancelled', 'unknown'] as const
export const batchSources = ['single', 'edit', 'import', 'revert'] as const

const planId = z.string().min(1).max(100)
/** Row numbers of a plan (an import's are the file's record numbers). */
const rowNumbers = z.array(z.number().int().min(0).max(100_000_000)).max(2_000_000)
const counted = <T extends readonly [string, ...string[]]>(names: T) => z.record(z.enum(names), z.number())

export const editOperationSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('set'), field: z.string().min(1).max(200), value: z.string().max(10_000) }).strict(),
  z.object({ op: z.literal('add'), field: z.string().min(1).max(200), value: z.string().max(10_000) }).strict(),
  z.object({ op: z.literal('remove'), field: z.string().min(1).max(200), value: z.string().max(10_000) }).strict(),
])
export type EditOperationInput = z.infer<typeof editOperationSchema>

/** What the page knows of a plan: its counts and sentences; rows come a page at a time (`bulk:rows`). */
export const planSummarySchema = z.object({
  planId,
  kind: z.string(),
  source: z.enum(batchSources),
  title: z.string(),
  counts: counted(planActions),
  problems: z.array(z.string()).max(200),
  total: z.number(),
  /** An import: the file's name (never its folder), each column and the field it fills, and how rows match. */
  fileName: z.string().nullable(),
  columns: z.array(z.object({ column: z.string(), field: z.string().nullable() })).max(500),
  match: z.enum(['id', 'external_id']).nullable(),
  /**
   * Main is applying this plan (a resumed batch is from the start): the page shows it applying,
   * Apply disabled, before its first progress arrives.
   */
  applying: z.boolean(),
})
export type PlanSummary = z.infer<typeof planSummarySchema>

const rowErrorSchema = z.object({ row: z.number(), column: z.string().nullable(), reason: z.string() })
export const planRowViewSchema = z.object({
  row: z.number(),
  action: z.enum(planActions),
  id: entityIdSchema.nullable(),
  /** The entity's name (its kind's title field) as the plan saw it or will send it; null when it has none. */
  name: z.string().max(1000).nullable(),
  /** {field: [before, after]} */
  changes: z.record(z.string(), z.tuple([z.json(), z.json()])),
  errors: z.array(rowErrorSchema).max(100),
  /** After an apply: what happened to the row; an `unknown` create names what the platform now has under its name. */
  outcome: z
    .object({
      status: z.enum(rowStatuses),
      id: entityIdSchema.nullable(),
      reason: z.string().nullable(),
      candidates: z.array(z.object({ id: entityIdSchema, name: z.string().max(1000) })).max(20),
    })
    .nullable(),
})
export type PlanRowView = z.infer<typeof planRowViewSchema>

export const unfinishedBatchSchema = z.object({
  batch: z.string(),
  kind: z.string(),
  source: z.enum(batchSources),
  title: z.string(),
  startedAt: z.string(),
  done: z.number(),
  total: z.number(),
})
export type UnfinishedBatchView = z.infer<typeof unfinishedBatchSchema>

export const changeQuerySchema = z
  .object({
    since: z.string().max(40).optional(),
    text: z.string().max(500).optional(),
    kind: entityKindSchema.optional(),
    /** One entity's changes (with `kind`): the entity drawer's "Changed here". */
    id: entityIdSchema.optional(),
    batch: z.string().max(100).optional(),
    outcome: z.enum(['applied', 'failed', 'conflict']).optional(),
    offset: z.number().int().min(0).max(100_000_000).optional(),
    limit: z.number().int().min(1).max(500).optional(),
  })
  .strict()
export type ChangeQueryInput = z.infer<typeof changeQuerySchema>

export const changeRecordSchema = z.object({
  change: z.string(),
  batch: z.string(),
  source: z.enum(batchSources),
  at: z.string(),
  kind: z.string(),
  id: entityIdSchema.nullable(),
  before: z.record(z.string(), z.json()).nullable(),
  after: z.record(z.string(), z.json()).nullable(),
  outcome: z.enum(['applied', 'failed', 'conflict']),
  reason: z.string().nullable(),
  /** A later revert undid it (and no revert since redid it): there is nothing left to revert. */
  reverted: z.boolean(),
})
export type ChangeRecordView = z.infer<typeof changeRecordSchema>

export const batchSummarySchema = z.object({
  batch: z.string(),
  source: z.enum(batchSources),
  title: z.string(),
  kind: z.string(),
  at: z.string(),
  changes: z.number(),
  /** Its applied changes no revert undid: a batch with none has nothing to revert. */
  revertible: z.number(),
})
export type BatchSummaryView = z.infer<typeof batchSummarySchema>

const onProfile = { profileId: profileRef }

export const bulkChannels = {
  /** Plans one operation over the given entities (the checked rows, or every row shown) from the local copy. */
  planEdit: channel(
    z.object({ ...onProfile, kind: entityKindSchema, ids: z.array(entityIdSchema).min(1).max(2_000_000), operation: editOperationSchema }).strict(),
    planSummarySchema,
  ),
  /**
   * Opens an import file with main's dialog (the web host: a file of its imports folder; with
   * several there, `files` lists their names and the page asks again with `fileName`) and plans it.
   */
  openImport: channel(
    z.object({ ...onProfile, kind: entityKindSchema, fileName: z.string().min(1).max(300).optional() }).strict(),
    z.discriminatedUnion('status', [
      z.object({ status: z.literal('planned'), plan: planSummarySchema }),
      z.object({ status: z.literal('choose'), files: z.array(z.string()).max(500) }),
      z.object({ status: z.literal('cancelled') }),
    ]),
  ),
  /** Plans the same file again with the user's column → field mapping (null: leave the column out) and match key. */
  replanImport: channel(
    z
      .object({
        planId,
        mapping: z.record(z.string().max(300), z.string().max(200).nullable()).refine((mapping) => Object.keys(mapping).length <= 500, 'At most 500 columns'),
        match: z.enum(['id', 'external_id']).optional(),
      })
      .strict(),
    planSummarySchema,
  ),
  /** One page of a plan's rows (with their outcomes once applied); `actions` narrows to some actions, `outcomes` to some outcomes (`skipped`: none yet). */
  rows: channel(
    z
      .object({
        planId,
        offset: z.number().int().min(0).max(100_000_000),
        limit: z.number().int().min(1).max(500),
        actions: z.array(z.enum(planActions)).max(5).optional(),
        outcomes: z.array(z.enum(rowStatuses)).max(6).optional(),
      })
      .strict(),
    z.object({ total: z.number(), rows: z.array(planRowViewSchema).max(500) }),
  ),
  /** Starts applying the plan's create, update and delete rows but the deselected ones; progress and the end come as onBulkProgress. */
  apply: channel(z.object({ planId, deselected: rowNumbers }).strict(), z.object({ batch: z.string().nullable() })),
  /** Stops an apply: rows not started are kept by the journal, to resume later. */
  cancel: channel(z.object({ planId }).strict(), z.null()),
  unfinished: channel(z.object(onProfile).strict(), z.array(unfinishedBatchSchema).max(1000)),
  /** Continues an interrupted apply; its progress comes as onBulkProgress under the returned plan id. */
  resume: channel(z.object({ ...onProfile, batch: z.string().min(1).max(100) }).strict(), planSummarySchema),
  discard: channel(z.object({ ...onProfile, batch: z.string().min(1).max(100) }).strict(), z.null()),
  /**
   * The user's word on a plan's row whose outcome is `unknown`: "it was created, it is id N"
   * (`createdId`) or "send it again" (null). The batch then continues on the same plan, as
   * `resume` does; its progress comes as onBulkProgress.
   */
  settle: channel(z.object({ planId, row: z.number().int().min(0).max(100_000_000), createdId: entityIdSchema.nullable() }).strict(), planSummarySchema),
} as const

export const changesChannels = {
  /** Newest first, one page: `total` counts every match. */
  list: channel(z.object({ ...onProfile, query: changeQuerySchema }).strict(), z.object({ total: z.number(), records: z.array(changeRecordSchema).max(500) })),
  batches: channel(z.object(onProfile).strict(), z.array(batchSummarySchema).max(10_000)),
  /** Every match to a CSV file main's save dialog names; only the file's name comes back (null: cancelled). */
  exportCsv: channel(z.object({ ...onProfile, query: changeQuerySchema }).strict(), z.object({ fileName: z.string(), rows: z.number() }).nullable()),
  /** The inverse of one change or a whole batch, as a plan for the same view and apply. */
  planRevert: channel(
    z.object({ ...onProfile, change: z.string().min(1).max(100).optional(), batch: z.string().min(1).max(100).optional() }).strict(),
    planSummarySchema,
  ),
} as const

export const bulkEvents = {
  /** An apply moved on (or ended: `finished`); the page asks for the rows it shows again. */
  onBulkProgress: z.object({
    planId: z.string(),
    batch: z.string().nullable(),
    done: z.number(),
    total: z.number(),
    counts: counted(rowStatuses),
    finished: z.boolean(),
    cancelled: z.boolean(),
    /** A sentence when the run stopped on an error (the journal keeps what is left). */
    error: z.string().nullable(),
  }),
} as const
