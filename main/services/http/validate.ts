import type { z } from 'zod'
import type { ResponseBody } from './body'
import { badResponse, unreadableBody, type RequestContext } from './errors'

/** A JSON answer checked against its schema; anything else is a `bad_response` that says what was wrong. */
export function expectJson<Schema extends z.ZodType>(
  schema: Schema,
  body: ResponseBody,
  status: number,
  context: RequestContext,
  what: string,
): z.output<Schema> {
  if (body.kind !== 'json') throw unreadableBody(body, status, context)
  const parsed = schema.safeParse(body.value)
  if (parsed.success) return parsed.data
  const issues = parsed.error.issues.slice(0, 5).map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
  throw badResponse(`${what} did not have the expected shape.`, context, { httpStatus: status, issues })
}
