import { z } from 'zod'
import { batchSources, entityIdSchema, entityKindSchema } from '@contract'
import type { ChangeRecord } from '../bulk/apply-types'

/**
 * One change-log line, whole, as `ChangeRecord` describes it: the log checks a record against it
 * before appending it, and every line it reads (a revert acts on its kind, id, before and after).
 */
export const changeRecordSchema = z.object({
  change: z.string().min(1),
  batch: z.string().min(1),
  source: z.enum(batchSources),
  title: z.string().optional(),
  at: z.string().min(1),
  profileId: z.string().min(1),
  kind: entityKindSchema,
  id: entityIdSchema.nullable(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  outcome: z.enum(['applied', 'failed', 'conflict']),
  reason: z.string().optional(),
  reverts: z.string().min(1).optional(),
}) satisfies z.ZodType<ChangeRecord>
