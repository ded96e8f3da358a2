/**
 * The small shapes every domain of the contract builds on. Strings coming from the page are
 * bounded so a hostile page cannot make main chew on megabytes.
 */
import { z } from 'zod'

export const text = (max = 2_000) => z.string().max(max)
export const name = z.string().trim().min(1, 'Required').max(200)
export const httpUrl = text(2_000)

/** No input. */
export const empty = z.object({}).strict()
/** Lets the renderer cancel a long call through `requests:cancel`. */
export const requestId = z.string().min(1).max(100)
/** A profile named by id in a call about something else. */
export const profileRef = z.string().min(1).max(100)
/** A profile named by id as the whole input. */
export const profileId = z.object({ id: z.string().min(1).max(100) }).strict()

/** An entity id as the platform gives it: a number, or a string on kinds that use them. */
export const entityIdSchema = z.union([z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), z.string().min(1).max(200)])
export type EntityId = z.infer<typeof entityIdSchema>

/** Ids compare as text: the platform and forms may hand back 7 or "7" for the same entity. */
export const sameId = (left: unknown, right: unknown): boolean => String(left) === String(right)

export type ChannelSpec<I extends z.ZodType, O extends z.ZodType> = { input: I; output: O }
export const channel = <I extends z.ZodType, O extends z.ZodType>(input: I, output: O): ChannelSpec<I, O> => ({ input, output })
