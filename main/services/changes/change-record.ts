import { z } from 'zod'
import { batchSources, entityIdSchema } from '@contract'
import type { ChangeRecord } from '../bulk/apply-types'

/** One change-log line as `ChangeRecord` describes it: what the log checks before it appends a record. */
export const changeRecordSchema = z.object({
  change: z.string().min(1),
  batch: z.string().min(1),
  source: z.enum(batchSources),
  title: z.string().optional(),
  at: z.string().min(1),
  profileId: z.string().min(1),
  kind: z.string().min(1),
  id: entityIdSchema.nullable(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  outcome: z.enum(['applied', 'failed', 'conflict']),
  reason: z.string().optional(),
}) satisfies z.ZodType<ChangeRecord>
