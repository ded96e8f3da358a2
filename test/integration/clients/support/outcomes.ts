import { AppError } from '../../../../main/services/errors'
import type { Entity } from '../../../../main/services/workflow/entities'

/** The AppError a call rejects with; any other outcome fails the test. */
export async function caught(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise
  } catch (error) {
    if (error instanceof AppError) return error
    throw error
  }
  throw new Error('expected the call to fail')
}

/** Every entity of a listing, all pages together. */
export async function collect(pages: AsyncIterable<Entity[]>): Promise<Entity[]> {
  const all: Entity[] = []
  for await (const page of pages) all.push(...page)
  return all
}
